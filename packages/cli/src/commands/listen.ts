// exchange-kit listen: a local webhook endpoint registered with the sandbox that verifies each delivery and
// forwards it, untouched, to the receiver being developed (a tunnel for local receivers).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { appendFile } from "node:fs/promises";
import { type ExchangeClient, isExchangeApiError } from "@exchange-kit/client";
import { verifyWebhook, WebhookVerificationError } from "@exchange-kit/webhook-verify";
import { baseUrl, type Credentials, requireCredentials, serviceClient } from "../credentials.js";
import { authFailureMessage } from "../auth-failure.js";
import { CommandFailure, type Output, UsageError } from "../output.js";
import { unreachableMessage } from "../unreachable.js";
import type { Command } from "./command.js";
import { portFlag } from "./flags.js";
import { untilAborted } from "./until-aborted.js";
import { type TraceDelivery, tracedDelivery, untracedDelivery } from "./listen/delivery-trace.js";
import { startTelemetry, type Telemetry } from "../telemetry.js";

// The trace context goes on too, so the receiver's spans join the sandbox's trace (with --otel, under the
// listener's own spans).
const FORWARDED = ["content-type", "x-timestamp", "x-signature", "traceparent", "tracestate"];

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** --forward-to: required, a URL. */
function forwardTarget(value: string | boolean | undefined): string {
  if (typeof value !== "string") throw new UsageError("--forward-to URL is required");
  try {
    new URL(value);
  } catch {
    throw new UsageError(`--forward-to is not a URL: ${value}`);
  }
  return value;
}

/** The delivery's verdict as the line shows it: the event when verified, the reason when not. */
async function verdictLabel(body: Buffer, headers: Record<string, string>, credentials: Credentials, out: Output) {
  try {
    const event = await verifyWebhook({ body, headers, ...credentials });
    return { verified: true, label: `${out.green("verified")} ${event.type} ${event.event} ${event.id}` };
  } catch (error) {
    const reason = error instanceof WebhookVerificationError ? error.code : String(error);
    return { verified: false, label: `${out.red("NOT VERIFIED")} ${reason}` };
  }
}

/**
 * Why a forward got no answer, with the URL: fetch's own message is only "fetch failed", its cause says what
 * happened (ECONNREFUSED, a DNS failure, the 10 s timeout).
 *
 * @example
 * forwardFailure("http://127.0.0.1:3000/hooks", new TypeError("fetch failed", { cause: refused }));
 * // "could not forward to http://127.0.0.1:3000/hooks: connect ECONNREFUSED 127.0.0.1:3000 (is your receiver running?)"
 */
export function forwardFailure(target: string, error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  const reason = cause instanceof Error ? cause.message : (error as Error).message;
  const refused = (cause as { code?: string } | undefined)?.code === "ECONNREFUSED";
  return `could not forward to ${target}: ${reason}${refused ? " (is your receiver running?)" : ""}`;
}

/** POSTs the raw body and the signature headers to the receiver: its status (502 when none came), and why it failed. */
async function forward(
  target: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; failure?: string }> {
  let status = 502;
  try {
    const answer = await fetch(target, {
      method: "POST",
      headers,
      body: new Uint8Array(body),
      signal: AbortSignal.timeout(10_000),
    });
    status = answer.status;
    await answer.arrayBuffer();
    return { status };
  } catch (error) {
    return { status, failure: forwardFailure(target, error) };
  }
}

/**
 * The webhook endpoint: each delivery is verified, saved (--save), forwarded untouched, printed, and answered
 * with the receiver's 2xx status (502 otherwise, so the sandbox retries).
 */
function forwarder(
  target: string,
  credentials: Credentials,
  save: string | undefined,
  out: Output,
  trace: TraceDelivery,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const body = await readBody(req);
    const text = body.toString("utf8");
    const headers: Record<string, string> = {};
    for (const name of FORWARDED) {
      const value = req.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    const verdict = await verdictLabel(body, headers, credentials, out);
    let label = verdict.label;
    if (save) await appendFile(save, `${JSON.stringify({ headers, body: text })}\n`);
    const { status, failure } = await trace(req.headers, headers, verdict.verified, (sent) =>
      forward(target, sent, body),
    );
    if (failure !== undefined) label += out.red(` ${failure}`);
    out.result(
      { forwarded: status, ...(failure === undefined ? {} : { failure }), headers, body: text },
      `${label} -> ${status}`,
    );
    res.writeHead(status >= 200 && status < 300 ? status : 502, { "content-type": "text/plain" }).end(String(status));
  };
}

/** Resolves with the endpoint's URL once the server listens on 127.0.0.1. */
function listenOn(server: Server, port: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`));
  });
}

/** Why registering failed, as [code, message]: the sandbox unreachable, a 401 (which credential), or the answer. */
function registerFailure(error: unknown, url: string, base: string): [string, string] {
  const unreachable = unreachableMessage(error, base);
  if (unreachable) return ["SANDBOX_UNREACHABLE", unreachable];
  if (isExchangeApiError(error) && error.status === 401)
    return [error.errCode ?? "HTTP_401", `could not register ${url}: ${authFailureMessage(error.errCode, base)}`];
  return ["REGISTER_FAILED", `could not register ${url} with ${base}: ${(error as Error).message}`];
}

/** Registers `url` as the organization's webhook URL; answers what was registered before. */
async function takeOver(client: ExchangeClient, url: string, base: string): Promise<PreviousWebhook> {
  try {
    const previous = await previousWebhook(client);
    await client.organization.registerWebhook({ webhook_url: url });
    return previous;
  } catch (error) {
    throw new CommandFailure(...registerFailure(error, url, base));
  }
}

export const listen: Command = {
  usage: `exchange-kit listen --forward-to URL [--base-url http://127.0.0.1:4020] [--port 0] [--save FILE]
  registers http://127.0.0.1:<port>/ as the organization's webhook URL, verifies every delivery, forwards the
  raw body and the signature headers to --forward-to, and answers the sandbox with the receiver's status;
  on exit (Ctrl-C) the URL registered before is put back
  --save FILE       append each delivery as a JSON line {headers, body} ('exchange-kit verify --delivery FILE'
                    checks every line)
  --otel            export the listener's spans (each delivery, and its forward under it) with the OpenTelemetry
                    Node SDK over OTLP/HTTP, configured as for exchange-kit sandbox --otel
  --api-key K --api-secret S   credentials (default: EXCHANGE_API_KEY, EXCHANGE_API_SECRET)`,
  options: {
    otel: { type: "boolean" },
    "forward-to": { type: "string" },
    "base-url": { type: "string" },
    port: { type: "string" },
    save: { type: "string" },
    "api-key": { type: "string" },
    "api-secret": { type: "string" },
  },
  async run({ values, out, env, signal }) {
    const credentials = requireCredentials(values, env);
    const target = forwardTarget(values["forward-to"]);
    const base = baseUrl(values["base-url"] as string | undefined, env);
    const save = typeof values.save === "string" ? values.save : undefined;
    const telemetry = values.otel === true ? await startTelemetry("listen", env) : undefined;
    try {
      const trace = telemetry ? tracedDelivery(await import("@opentelemetry/api")) : untracedDelivery;
      const server = createServer(forwarder(target, credentials, save, out, trace));
      const url = await listenOn(server, portFlag(values.port, 0));
      const client = serviceClient(base, credentials);
      const previous = await takeOver(client, url, base).catch((error: unknown) => {
        server.close();
        throw error;
      });
      announceListening(out, url, target, telemetry);
      await untilAborted(signal);
      await new Promise((resolve) => server.close(resolve));
      return await restoreWebhook(client, previous, url, out);
    } finally {
      // Flushes the spans not yet exported.
      await telemetry?.shutdown();
    }
  },
};

/** The ready line: where it listens, where it forwards, and where its spans go with --otel. */
function announceListening(out: Output, url: string, target: string, telemetry: Telemetry | undefined): void {
  const traces = telemetry ? `; traces to ${telemetry.endpoint}` : "";
  out.result(
    { listening: url, forwardTo: target, ...(telemetry ? { otel: { endpoint: telemetry.endpoint } } : {}) },
    `${out.green("listening")} on ${url}, forwarding to ${target}${traces} (Ctrl-C to stop)`,
  );
}

/** What was registered before listen took over: a URL, none (null), or unknown (not a sandbox). */
type PreviousWebhook = string | null | undefined;

async function previousWebhook(client: ExchangeClient): Promise<PreviousWebhook> {
  try {
    const settings = await client.request<{ webhook_url?: string | null }>("GET", "/_sandbox/settings");
    return settings.webhook_url;
  } catch (error) {
    if (isExchangeApiError(error) && error.status === 404) return undefined; // a service without the control API
    throw error;
  }
}

/** Puts back the URL that was registered before (or none), so no dead port stays registered; exit code. */
async function restoreWebhook(
  client: ExchangeClient,
  previous: PreviousWebhook,
  mine: string,
  out: Output,
): Promise<number> {
  try {
    if (typeof previous === "string") {
      await client.organization.registerWebhook({ webhook_url: previous });
      out.result({ restored: previous }, `restored the previous webhook URL ${previous}`);
    } else if (previous === null) {
      await client.request("POST", "/_sandbox/settings", { body: { webhook_url: null } });
      out.result({ restored: null }, `unregistered ${mine} (no webhook URL was registered before)`);
    } else {
      out.line(out.dim(`${mine} stays registered: this service cannot say which URL was registered before`));
    }
    return 0;
  } catch (error) {
    out.error("RESTORE_FAILED", `could not restore the previous webhook URL: ${(error as Error).message}`);
    return 1;
  }
}
