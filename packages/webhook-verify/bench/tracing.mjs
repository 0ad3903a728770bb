// What OpenTelemetry costs per webhook delivery handled by createWebhookHandler (verify, answer; onEvent a no-op,
// without deduplication: a round answers deliveries back to back, and the handlers run when the round yields), in one run: phase 1 with @opentelemetry/api installed and no tracer provider, phase 2
// with the SDK's BasicTracerProvider and a processor that drops every span. Each phase also times verifyWebhook
// alone (the floor: no tracing code runs in it) so the ratios compare variants measured side by side. Medians of
// rounds, CPU time per delivery (wall time too); ratios to the handler with `tracing: false` (never imports the API).
// Phase 2 also times the handler with `tracing: false` inside two spans of the application's own tracer (what any
// two spans cost per delivery: the SDK's share of the handler's tracing).
//
// Then the same over HTTP, as a user sees it: deliveries POSTed one after another by fetch (keep-alive) to a
// node:http server in this process running createNodeWebhookHandler, beside a bare node:http server that reads the
// body and answers 200 (the floor). CPU time is this process's: the sender's and the server's.
//
// BEFORE=<path of another build's dist/index.js> adds that build's handler (default tracing) to every phase.
//
//   node bench/tracing.mjs [deliveriesPerRound=2000] [rounds=15]
import { createServer } from "node:http";
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { createWebhookHandler, signTestWebhook, verifyWebhook } from "../dist/index.js";
import { createNodeWebhookHandler } from "../dist/node.js";

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

const before = process.env.BEFORE
  ? {
      fetch: await import(new URL(process.env.BEFORE, `file://${process.cwd()}/`).href),
      node: await import(new URL(process.env.BEFORE.replace(/index\.js$/, "node.js"), `file://${process.cwd()}/`).href),
    }
  : undefined;
const appTracer = trace.getTracer("bench");

const handlerRun =
  (tracing, create = createWebhookHandler, wrapped = false) =>
  () => {
    const options = { apiKey, apiSecret, deduplicator: false, onError: () => {}, tracing };
    const handle = create(options, () => {});
    // The application's own two spans around a delivery: one for the request, one for its handling.
    const inSpans = async (request) => {
      const outer = appTracer.startSpan("receive", { attributes: { "http.request.method": "POST" } });
      const inner = appTracer.startSpan("handle", { attributes: { "exchange.webhook.event_type": "PAYOUT" } });
      try {
        return await handle(request);
      } finally {
        inner.end();
        outer.setAttribute("http.response.status_code", 200);
        outer.end();
      }
    };
    const send = wrapped ? inSpans : handle;
    return async () => {
      for (const { body, headers } of deliveries) {
        const response = await send(new Request("http://127.0.0.1/hooks", { method: "POST", headers, body }));
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

/** A node:http server on an ephemeral port, and a run that POSTs every delivery to it, one after another. */
async function overHttp(listener) {
  const server = createServer(listener);
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/hooks`;
  servers.push(server);
  return () => async () => {
    for (const { body, headers } of deliveries) {
      const response = await fetch(url, { method: "POST", headers, body });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`answered ${response.status}`);
    }
  };
}
const servers = [];
const bareServer = (req, res) => {
  req.on("data", () => {});
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"received":true}');
  });
};
const nodeHandler = (tracing, create = createNodeWebhookHandler) =>
  create({ apiKey, apiSecret, deduplicator: false, onError: () => {}, tracing }, () => {});

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
  console.log(`${"".padEnd(42)} ${["wall", "wall/off", "cpu", "cpu/off"].map((h) => h.padStart(10)).join(" ")}`);
  const off = median(results["handler, tracing: false"].map((x) => x.cpu));
  const offWall = median(results["handler, tracing: false"].map((x) => x.wall));
  for (const n of names) {
    const wall = median(results[n].map((x) => x.wall));
    const cpu = median(results[n].map((x) => x.cpu));
    const cells = [wall, wall / offWall, cpu, cpu / off].map((x) => x.toFixed(2).padStart(10));
    console.log(`${n.padEnd(42)} ${cells.join(" ")}`);
  }
}

console.log(`${rounds} rounds x ${perRound} deliveries; medians in µs per delivery`);
const variants = {
  "verifyWebhook (floor)": () => verifyRun,
  "handler, tracing: false": handlerRun(false),
  "handler (default)": handlerRun(undefined),
  ...(before && { "before: handler (default)": handlerRun(undefined, before.fetch.createWebhookHandler) }),
};
const http = {
  "bare node:http server (floor)": await overHttp(bareServer),
  "handler, tracing: false": await overHttp(nodeHandler(false)),
  "handler (default)": await overHttp(nodeHandler(undefined)),
  ...(before && {
    "before: handler (default)": await overHttp(nodeHandler(undefined, before.node.createNodeWebhookHandler)),
  }),
};
try {
  await phase("phase 1: @opentelemetry/api installed, no tracer provider registered", variants);
  await phase("phase 1 over HTTP (createNodeWebhookHandler)", http);
  const drop = { onStart() {}, onEnd() {}, forceFlush: async () => {}, shutdown: async () => {} };
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [drop] }));
  await phase("phase 2: a tracer provider registered, spans dropped by a no-op processor", {
    ...variants,
    "handler, tracing: false, in two app spans": handlerRun(false, createWebhookHandler, true),
  });
  await phase("phase 2 over HTTP (createNodeWebhookHandler)", http);
} finally {
  for (const server of servers) {
    server.close();
    server.closeAllConnections();
  }
}
