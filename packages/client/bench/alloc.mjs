// The client's own work per call, in process, against a fetch that answers at once (no socket, no server): bytes
// allocated (the heap's growth over 1,000 calls with a young generation large enough that no GC runs in between,
// checked; a round with a GC is measured again), which does not move with load on the machine, and CPU time per
// call (medians of 15 interleaved rounds of 2,000 calls, GC included). Beside the client: a hand-signed call
// through the same fetch (sign, fetch, response.json()). Without, then with, a tracer provider.
// BEFORE=<path of another build's dist/index.js> adds that build's variants.
//
//   node --expose-gc --min-semi-space-size=64 --max-semi-space-size=64 bench/alloc.mjs
import { PerformanceObserver } from "node:perf_hooks";
import { computeSignature } from "@exchange-kit/signing";
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import * as current from "../dist/index.js";

if (typeof globalThis.gc !== "function") throw new Error("run with --expose-gc (see the comment at the top)");
const before = process.env.BEFORE
  ? await import(new URL(process.env.BEFORE, `file://${process.cwd()}/`).href)
  : undefined;
const CALLS = 1000;
const ID = "3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f";
const baseUrl = "http://127.0.0.1:9";
const answer = JSON.stringify({ status: true, message: "Success", data: { id: "kyc-1", status: "PROCESSING" } });
const length = String(Buffer.byteLength(answer));
const fakeFetch = async () =>
  new Response(answer, { status: 200, headers: { "content-type": "application/json", "content-length": length } });

let gcs = 0;
new PerformanceObserver((list) => {
  gcs += list.getEntries().length;
}).observe({ entryTypes: ["gc"] });

async function handSigned() {
  const now = String(Math.floor(Date.now() / 1000));
  const signature = await computeSignature({ apiKey: "k", apiSecret: "s", timestamp: now, canonicalBody: "{}" });
  const headers = { Accept: "application/json", "X-API-KEY": "k", "X-TIMESTAMP": now, "X-SIGNATURE": signature };
  const envelope = await (await fakeFetch(`${baseUrl}/cms/api/v1/customer/${ID}`, { headers })).json();
  if (envelope.status !== true) throw new Error("bad answer");
  return envelope.data;
}

function variants(label, build) {
  const make = (options) =>
    build.createExchangeClient({ baseUrl, apiKey: "k", apiSecret: "s", fetch: fakeFetch, ...options });
  const client = make({});
  const bare = make({ timeoutMs: Infinity, tracing: false });
  // The default against tracing: false alone: what tracing costs a call when no provider is registered.
  const untraced = make({ tracing: false });
  return {
    [`${label}customers.get`]: () => client.customers.get(ID),
    [`${label}customers.get, tracing: false`]: () => untraced.customers.get(ID),
    [`${label}customers.get, no timer, tracing: false`]: () => bare.customers.get(ID),
    [`${label}client.raw.GET`]: () =>
      client.raw.GET("/cms/api/v1/customer/{customer_id}", { params: { path: { customer_id: ID } } }),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));
async function bytesPerCall(fn) {
  for (let i = 0; i < 500; i++) await fn();
  for (let tries = 0; tries < 5; tries++) {
    globalThis.gc();
    await settle();
    const gcsBefore = gcs;
    const start = process.memoryUsage().heapUsed;
    for (let i = 0; i < CALLS; i++) await fn();
    const end = process.memoryUsage().heapUsed;
    await settle();
    if (gcs === gcsBefore) return (end - start) / CALLS;
  }
  return Number.NaN;
}

/** Median CPU µs per call over interleaved rounds of every variant. */
async function cpuPerCall(runs, rounds = 15, perRound = 2000) {
  const names = Object.keys(runs);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let r = 0; r < rounds + 2; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + r) % names.length];
      const cpu = process.cpuUsage();
      for (let i = 0; i < perRound; i++) await runs[name]();
      const { user, system } = process.cpuUsage(cpu);
      if (r >= 2) samples[name].push((user + system) / perRound);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return Object.fromEntries(names.map((name) => [name, median(samples[name])]));
}

async function table(title) {
  console.log(`\n${title}`);
  const runs = {
    "hand-signed call": handSigned,
    ...variants("", current),
    ...(before && variants("before: ", before)),
  };
  const bytes = {};
  for (const [name, fn] of Object.entries(runs)) bytes[name] = await bytesPerCall(fn);
  const cpu = await cpuPerCall(runs);
  for (const name of Object.keys(runs)) {
    const cells = `${String(Math.round(bytes[name])).padStart(7)} B ${cpu[name].toFixed(1).padStart(7)} µs CPU`;
    console.log(`${name.padEnd(52)} ${cells}`);
  }
}

await table("@opentelemetry/api installed, no tracer provider");
const drop = { onStart() {}, onEnd() {}, forceFlush: async () => {}, shutdown: async () => {} };
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [drop] }));
await table("a tracer provider registered, spans dropped by a no-op processor");
