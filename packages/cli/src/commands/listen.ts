// exchange-kit listen: a local webhook endpoint registered with the sandbox that verifies each delivery and
// forwards it, untouched, to the receiver being developed (a tunnel for local receivers).
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { appendFile } from "node:fs/promises";
import { type ExchangeClient, isExchangeApiError } from "@exchange-kit/client";
import { verifyWebhook, WebhookVerificationError } from "@exchange-kit/webhook-verify";
import { baseUrl, requireCredentials, serviceClient } from "../credentials.js";
import { type Output, UsageError } from "../output.js";
import { unreachableMessage } from "../unreachable.js";
import type { Command } from "./command.js";

const FORWARDED = ["content-type", "x-timestamp", "x-signature"];

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export const listen: Command = {
  name: "listen",
  summary: "receive the sandbox's webhooks and forward them to a local URL",
  usage: `exchange-kit listen --forward-to URL [--base-url http://127.0.0.1:4020] [--port 0] [--save FILE]
  registers http://127.0.0.1:<port>/ as the organization's webhook URL, verifies every delivery, forwards the
  raw body and the signature headers to --forward-to, and answers the sandbox with the receiver's status;
  on exit (Ctrl-C) the URL registered before is put back
  --save FILE       append each delivery as a JSON line {headers, body} ('exchange-kit verify --delivery FILE'
                    checks every line)
  --api-key K --api-secret S   credentials (default: EXCHANGE_API_KEY, EXCHANGE_API_SECRET)`,
  options: {
    "forward-to": { type: "string" },
    "base-url": { type: "string" },
    port: { type: "string" },
    save: { type: "string" },
    "api-key": { type: "string" },
    "api-secret": { type: "string" },
  },
  async run({ values, out, env, signal }) {
    const credentials = requireCredentials(values, env);
    const target = values["forward-to"];
    if (typeof target !== "string") throw new UsageError("--forward-to URL is required");
    try {
      new URL(target);
    } catch {
      throw new UsageError(`--forward-to is not a URL: ${target}`);
    }
    const base = baseUrl(values["base-url"] as string | undefined, env);
    const save = typeof values.save === "string" ? values.save : undefined;

    const server = createServer(async (req, res) => {
      const body = await readBody(req);
      const text = body.toString("utf8");
      const headers: Record<string, string> = {};
      for (const name of FORWARDED) {
        const value = req.headers[name];
        if (typeof value === "string") headers[name] = value;
      }
      let label: string;
      try {
        const event = await verifyWebhook({ body, headers, ...credentials });
        label = `${out.green("verified")} ${event.type} ${event.event} ${event.id}`;
      } catch (error) {
        label = `${out.red("NOT VERIFIED")} ${error instanceof WebhookVerificationError ? error.code : String(error)}`;
      }
      if (save) await appendFile(save, `${JSON.stringify({ headers, body: text })}\n`);
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
      } catch (error) {
        label += out.red(` forward failed: ${(error as Error).message}`);
      }
      out.result({ forwarded: status, headers, body: text }, `${label} -> ${status}`);
      res.writeHead(status >= 200 && status < 300 ? status : 502, { "content-type": "text/plain" }).end(String(status));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(values.port === undefined ? 0 : Number(values.port), "127.0.0.1", () => resolve());
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const client = serviceClient(base, credentials);
    let previous: PreviousWebhook;
    try {
      previous = await previousWebhook(client);
      await client.organization.registerWebhook({ webhook_url: url });
    } catch (error) {
      server.close();
      throw new Error(
        unreachableMessage(error, base) ?? `could not register ${url} with ${base}: ${(error as Error).message}`,
      );
    }
    out.result(
      { listening: url, forwardTo: target },
      `${out.green("listening")} on ${url}, forwarding to ${target} (Ctrl-C to stop)`,
    );
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      signal.addEventListener("abort", () => resolve(), { once: true });
    });
    await new Promise((resolve) => server.close(resolve));
    return restoreWebhook(client, previous, url, out);
  },
};

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
