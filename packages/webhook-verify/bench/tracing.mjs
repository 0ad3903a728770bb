// What OpenTelemetry costs per webhook delivery handled by createWebhookHandler (verify, answer; onEvent a no-op,
// without deduplication: a round answers deliveries back to back, and the handlers run when the round yields), in one run: phase 1 with @opentelemetry/api installed and no tracer provider, phase 2
// with the SDK's BasicTracerProvider and a processor that drops every span. Each phase also times verifyWebhook
// alone (the floor: no tracing code runs in it) so the ratios compare variants measured side by side. Medians of
// rounds, CPU time per delivery (wall time too); ratios to the handler with `tracing: false` (never imports the API).
//
//   node bench/tracing.mjs [deliveriesPerRound=2000] [rounds=15]
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { createWebhookHandler, signTestWebhook, verifyWebhook } from "../dist/index.js";

const perRound = Number(process.argv[2] ?? 2000);
const rounds = Number(process.argv[3] ?? 15);
const apiKey = "bench-key";
const apiSecret = "bench-secret";
const now = Math.floor(Date.now() / 1000);

// Distinct events, so that every delivery is claimed and accepted (none is a duplicate).
const deliveries = await Promise.all(
  Array.from({ length: perRound }, (_, i) =>
    signTestWebhook({
      apiKey,
      apiSecret,
      timestamp: now,
      event: {
        type: "PAYOUT",
        id: `c4b3a291-8f7e-4d6c-9b5a-${String(i).padStart(12, "0")}`,
        event: "SUCCESS",
        timestamp: "2026-03-01T10:55:02Z",
        metadata: { client_reference_id: `po-${i}` },
      },
    }),
  ),
);

const handlerRun = (tracing) => () => {
  const options = { apiKey, apiSecret, deduplicator: false, onError: () => {}, tracing };
  const handle = createWebhookHandler(options, () => {});
  return async () => {
    for (const { body, headers } of deliveries) {
      const response = await handle(new Request("http://127.0.0.1/hooks", { method: "POST", headers, body }));
      if (response.status !== 200) throw new Error(`answered ${response.status}`);
    }
    // The handlers (and their spans) run once the round yields to timers: their cost is part of the round.
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
};
const verifyRun = async () => {
  for (const { body, headers } of deliveries) await verifyWebhook({ apiKey, apiSecret, body, headers });
};

async function round(run) {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await run();
  const wall = Number(process.hrtime.bigint() - start) / 1000 / perRound;
  const { user, system } = process.cpuUsage(cpu);
  return { wall, cpu: (user + system) / perRound };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function phase(title, makeRuns) {
  const names = Object.keys(makeRuns);
  const results = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds + 2; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + r) % names.length];
      const measured = await round(makeRuns[name]());
      if (r >= 2) results[name].push(measured);
    }
  }
  console.log(`\n${title}`);
  console.log(`${"".padEnd(34)} ${["wall", "cpu", "cpu/off"].map((h) => h.padStart(10)).join(" ")}`);
  const off = median(results["handler, tracing: false"].map((x) => x.cpu));
  for (const n of names) {
    const wall = median(results[n].map((x) => x.wall));
    const cpu = median(results[n].map((x) => x.cpu));
    console.log(`${n.padEnd(34)} ${[wall, cpu, cpu / off].map((x) => x.toFixed(2).padStart(10)).join(" ")}`);
  }
}

console.log(`${rounds} rounds x ${perRound} deliveries; medians in µs per delivery`);
const variants = {
  "verifyWebhook (floor)": () => verifyRun,
  "handler, tracing: false": handlerRun(false),
  "handler (default)": handlerRun(undefined),
};
await phase("phase 1: @opentelemetry/api installed, no tracer provider registered", variants);
const drop = { onStart() {}, onEnd() {}, forceFlush: async () => {}, shutdown: async () => {} };
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [drop] }));
await phase("phase 2: a tracer provider registered, spans dropped by a no-op processor", variants);
