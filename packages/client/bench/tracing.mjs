// What OpenTelemetry costs per request, in one run against the same local node:http server (a child process):
// phase 1 without a tracer provider (the API installed, nothing registered: the client's spans are no-ops), phase 2
// with the SDK's BasicTracerProvider and a span processor that drops every span (the cost of making spans, not of
// exporting them). Each phase also times a hand-signed fetch and the client with `tracing: false` (which never
// imports the API: today's client), so every ratio compares variants measured side by side. Medians of rounds,
// wall and CPU time per GET. BEFORE=<path of another build's dist/index.js> adds that build's default client to
// both phases, measured in the same rounds.
//
//   node bench/tracing.mjs [requestsPerRound=1000] [rounds=15]
import { fork } from "node:child_process";
import { computeSignature } from "@exchange-kit/signing";
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { interleavedRounds, median, paired } from "./rounds.mjs";
import { createExchangeClient } from "../dist/index.js";

const perRound = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 15);
const API_KEY = "bench-key";
const API_SECRET = "bench-secret";
const CUSTOMER_ID = "3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f";

const server = fork(new URL("./server.mjs", import.meta.url), { stdio: ["ignore", "pipe", "inherit", "ipc"] });
const port = await new Promise((resolve, reject) => {
  server.stdout.on("data", (chunk) => {
    const match = /listening (\d+)/.exec(String(chunk));
    if (match) resolve(Number(match[1]));
  });
  server.once("exit", () => reject(new Error("bench server exited")));
});
const baseUrl = `http://127.0.0.1:${port}`;
const getUrl = `${baseUrl}/cms/api/v1/customer/${CUSTOMER_ID}`;

async function handSigned() {
  const now = String(Math.floor(Date.now() / 1000));
  const signature = await computeSignature({
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    timestamp: now,
    canonicalBody: "{}",
  });
  const headers = { Accept: "application/json", "X-API-KEY": API_KEY, "X-TIMESTAMP": now, "X-SIGNATURE": signature };
  const envelope = await (await fetch(getUrl, { headers })).json();
  if (envelope.status !== true) throw new Error("bad answer");
  return envelope.data;
}

// The same hand-signed fetch inside two spans of the same tracer (a call span and an attempt span, with a few
// attributes): what any instrumentation of this request costs, the peer of the client's own spans.
const appTracer = trace.getTracer("bench");
async function handSignedTraced() {
  const call = appTracer.startSpan("call", { attributes: { "exchange.operation_id": "getCustomer" } });
  const attempt = appTracer.startSpan("GET /cms/api/v1/customer/{customer_id}", {
    attributes: { "http.request.method": "GET", "server.address": "127.0.0.1", "exchange.attempt": 1 },
  });
  try {
    return await handSigned();
  } finally {
    attempt.setAttribute("http.response.status_code", 200);
    attempt.end();
    call.end();
  }
}

const before = process.env.BEFORE
  ? await import(new URL(process.env.BEFORE, `file://${process.cwd()}/`).href)
  : undefined;
const clientWith = (options, create = createExchangeClient) => {
  const client = create({
    baseUrl,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    timeoutMs: Infinity,
    ...options,
  });
  return () => client.customers.get(CUSTOMER_ID);
};

async function phase(title, runs) {
  const names = Object.keys(runs);
  const results = await interleavedRounds(runs, rounds, perRound);
  console.log(`\n${title}`);
  const head = ["wall", "/off", "cpu", "/off"].map((h) => h.padStart(7)).join(" ");
  console.log(`${"".padEnd(40)} ${head}   paired cpu/off: median [quartiles]`);
  const off = "client, tracing: false";
  const wall = Object.fromEntries(names.map((n) => [n, median(results[n].map((x) => x.wall))]));
  const cpu = Object.fromEntries(names.map((n) => [n, median(results[n].map((x) => x.cpu))]));
  for (const n of names) {
    const cells = [wall, cpu].flatMap((m) => [m[n].toFixed(1).padStart(7), (m[n] / m[off]).toFixed(3).padStart(7)]);
    console.log(`${n.padEnd(40)} ${cells.join(" ")}   ${paired(results[n], results[off])}`);
  }
  const spans = "hand-signed fetch in two spans";
  if (results[spans]) {
    console.log(
      `the application's own two spans, paired cpu/hand-signed: ${paired(results[spans], results["hand-signed fetch"])}`,
    );
  }
}

try {
  console.log(
    `GET; ${rounds} rounds x ${perRound} sequential requests; medians in µs per request; /off = to the client with tracing: false`,
  );
  await phase("phase 1: @opentelemetry/api installed, no tracer provider registered", {
    "hand-signed fetch": handSigned,
    "client, tracing: false": clientWith({ tracing: false }),
    "client (default: tracing when registered)": clientWith({}),
    ...(before && { "before: client (default)": clientWith({}, before.createExchangeClient) }),
  });
  // A provider whose processor drops every span: spans are made, sampled and ended, and nothing is exported.
  const drop = { onStart() {}, onEnd() {}, forceFlush: async () => {}, shutdown: async () => {} };
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [drop] }));
  await phase("phase 2: a tracer provider registered, spans dropped by a no-op processor", {
    "hand-signed fetch": handSigned,
    "hand-signed fetch in two spans": handSignedTraced,
    "client, tracing: false": clientWith({ tracing: false }),
    "client (default: tracing when registered)": clientWith({}),
    ...(before && { "before: client (default)": clientWith({}, before.createExchangeClient) }),
  });
} finally {
  server.kill();
}
