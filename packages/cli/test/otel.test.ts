// --otel on `exchange-kit sandbox` and `exchange-kit listen`, against a real OTLP/HTTP receiver: a small HTTP
// server taking the exporter's JSON export, as a collector would. The client in this process exports to it too,
// so the whole trace (client → sandbox → listener → receiver) arrives in one place with its parent links. The
// export waits for the SDK's batch delay (an hour here), so every span that arrives was flushed at exit.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { createExchangeClient } from "@exchange-kit/client";
import { parseJson } from "@exchange-kit/signing";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { NodeSDK, tracing } from "@opentelemetry/sdk-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingSdkMessage, startTelemetry, tracesEndpoint } from "../src/telemetry.js";
import { CommandFailure } from "../src/output.js";
import { startChild } from "./support/child.js";

const credentials = { apiKey: "ek_otel_key", apiSecret: "ek_otel_secret" };
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
}

const exported: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
const spans: ExportedSpan[] = [];
const delivered: IncomingHttpHeaders[] = [];
let collector: Server;
let receiver: Server;
let collectorUrl: string;
let receiverUrl: string;

/** The spans of an OTLP/HTTP JSON export, each with its resource's service.name. */
function spansOf(body: string): ExportedSpan[] {
  type Attribute = { key: string; value: { stringValue?: string } };
  const request = parseJson(body) as {
    resourceSpans: Array<{ resource: { attributes: Attribute[] }; scopeSpans: Array<{ spans: ExportedSpan[] }> }>;
  };
  return request.resourceSpans.flatMap((resource) => {
    const service = resource.resource.attributes.find((a) => a.key === "service.name")?.value.stringValue ?? "";
    return resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => ({ ...span, service })));
  });
}

async function serve(handler: (path: string, headers: IncomingHttpHeaders, body: string) => void): Promise<Server> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += String(c)));
    req.on("end", () => {
      handler(req.url ?? "", req.headers, body);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return server;
}

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

beforeAll(async () => {
  collector = await serve((path, headers, body) => {
    exported.push({ path, headers });
    if (path === "/v1/traces") spans.push(...spansOf(body));
  });
  receiver = await serve((_path, headers) => delivered.push(headers));
  collectorUrl = urlOf(collector);
  receiverUrl = `${urlOf(receiver)}/hooks`;
});

afterAll(async () => {
  await new Promise((r) => collector.close(r));
  await new Promise((r) => receiver.close(r));
});

/** The standard variables, as a team sets them for each process. */
const otelEnv = (service: string) => ({
  EXCHANGE_API_KEY: credentials.apiKey,
  EXCHANGE_API_SECRET: credentials.apiSecret,
  OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
  OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer collector-token",
  OTEL_SERVICE_NAME: service,
  OTEL_BSP_SCHEDULE_DELAY: "3600000",
});

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("--otel", () => {
  it("exports the client → sandbox → listener → receiver trace with its parent links, flushed at exit", async () => {
    const sandbox = startChild(process.execPath, [bin, "sandbox", "--port", "0", "--auto-progress", "off", "--otel"], {
      ...otelEnv("team-sandbox"),
    });
    const ready = await sandbox.line("sandbox ready");
    expect(ready).toContain(`; traces to ${collectorUrl}/v1/traces`);
    const base = /at (http:\/\/\S+)/.exec(ready)![1]!;
    const listen = startChild(
      process.execPath,
      [bin, "listen", "--base-url", base, "--forward-to", receiverUrl, "--otel"],
      otelEnv("webhook-listener"),
    );
    expect(await listen.line("listening")).toContain(`; traces to ${collectorUrl}/v1/traces`);

    // The client, in this process, exports to the same collector.
    const sdk = new NodeSDK({
      serviceName: "payments-backend",
      spanProcessors: [new tracing.SimpleSpanProcessor(new OTLPTraceExporter({ url: `${collectorUrl}/v1/traces` }))],
      metricReaders: [],
      logRecordProcessors: [],
    });
    sdk.start();
    try {
      const client = createExchangeClient({ baseUrl: base, ...credentials });
      const customer = await client.customers.create({
        client_reference_id: "otel-1",
        full_name: "Asha Verma",
        alpha_3_country_code: "IND",
      });
      await client.request("POST", `/_sandbox/customers/${customer.id}/transition`, { body: { status: "VERIFIED" } });
      await until(() => delivered.length > 0, "the delivery at the receiver");
    } finally {
      await sdk.shutdown();
    }
    expect(spans.filter((s) => s.service === "team-sandbox")).toEqual([]); // nothing before the exit's flush
    // Ctrl-C, the listener first (it puts the sandbox's webhook URL back on its way out).
    listen.process.kill("SIGINT");
    expect(await listen.exited).toBe(0);
    sandbox.process.kill("SIGINT");
    expect(await sandbox.exited).toBe(0);

    const named = (service: string, name: string) => {
      const found = spans.filter((s) => s.service === service && s.name === name);
      expect(found, `${service} ${name} in ${JSON.stringify(spans.map((s) => [s.service, s.name]))}`).toHaveLength(1);
      return found[0]!;
    };
    const call = named("payments-backend", "exchange.request");
    const attempt = spans.find((s) => s.parentSpanId === call.spanId && s.service === "payments-backend")!;
    const handled = named("team-sandbox", "POST /_sandbox/customers/{id}/transition");
    const deliver = named("team-sandbox", "exchange.webhook.deliver");
    const receive = named("webhook-listener", "exchange.listen.receive");
    const forward = named("webhook-listener", "exchange.listen.forward");
    expect(handled.parentSpanId).toBe(attempt.spanId);
    expect(deliver.parentSpanId).toBe(handled.spanId);
    expect(receive.parentSpanId).toBe(deliver.spanId);
    expect(forward.parentSpanId).toBe(receive.spanId);
    for (const span of [attempt, handled, deliver, receive, forward]) expect(span.traceId).toBe(call.traceId);
    // The receiver continues the trace under the forward.
    expect(delivered[0]!.traceparent).toBe(`00-${call.traceId}-${forward.spanId}-01`);
    // OTEL_EXPORTER_OTLP_HEADERS reached the collector with the exports of the two commands (the client in this
    // process was given none).
    const authorized = exported.filter((e) => e.headers.authorization === "Bearer collector-token");
    expect(authorized.length).toBeGreaterThanOrEqual(2);
    expect(authorized.every((e) => e.path === "/v1/traces")).toBe(true);
  }, 60_000);
});

/** Prints "LOADED <url>" on stderr for every module of the OpenTelemetry SDK and its exporter. */
const WATCH_SDK = `data:text/javascript,${encodeURIComponent(`
import { registerHooks } from "node:module";
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    if (/@opentelemetry[+/](sdk-node|exporter-trace-otlp-http)/.test(resolved.url))
      process.stderr.write("LOADED " + resolved.url + "\\n");
    return resolved;
  },
});`)}`;

describe("the SDK is loaded only with --otel", () => {
  it.each([
    [[], false],
    [["--otel"], true],
  ])("sandbox %j loads the SDK: %s", async (flags, loads) => {
    const args = ["--import", WATCH_SDK, bin, "sandbox", "--port", "0", ...flags];
    const sandbox = startChild(process.execPath, args, otelEnv("lazy"));
    await sandbox.line("sandbox ready");
    await sandbox.kill();
    expect(sandbox.stderr().includes("LOADED ")).toBe(loads);
  });
});

describe("the OTLP endpoint the ready line names", () => {
  it.each([
    [{}, "http://localhost:4318/v1/traces"],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }, "http://collector:4318/v1/traces"],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "https://otlp.example/base/" }, "https://otlp.example/base/v1/traces"],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: "http://a:4318", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://b:9999/traces" },
      "http://b:9999/traces",
    ],
  ])("%j exports to %s", (env, endpoint) => {
    expect(tracesEndpoint(env)).toBe(endpoint);
  });
});

describe("--otel without the SDK installed", () => {
  const notFound = (name: string) =>
    Object.assign(new Error(`Cannot find package '${name}'`), { code: "ERR_MODULE_NOT_FOUND" });

  it("stops in one line naming the packages to install", async () => {
    const load = async (name: string) => {
      if (name === "@opentelemetry/api") return import("@opentelemetry/api");
      throw notFound(name);
    };
    const failure = await startTelemetry("sandbox", {}, load).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CommandFailure);
    expect((failure as Error).message).toBe(
      missingSdkMessage("sandbox", ["@opentelemetry/sdk-node", "@opentelemetry/exporter-trace-otlp-http"]),
    );
    expect((failure as Error).message).toBe(
      "exchange-kit sandbox --otel needs the OpenTelemetry SDK (@opentelemetry/sdk-node, @opentelemetry/exporter-trace-otlp-http not found): npm install @opentelemetry/api @opentelemetry/sdk-node @opentelemetry/exporter-trace-otlp-http",
    );
  });

  it("does not hide another failure of a package's import", async () => {
    const broken = new SyntaxError("Unexpected token");
    const failure = await startTelemetry("listen", {}, async () => {
      throw broken;
    }).catch((e: unknown) => e);
    expect(failure).toBe(broken);
  });
});
