// The sandbox under benchmark, in its own process (the load generator gets the other core). BENCH_DB: a file or a
// postgres:// URL (else in memory); BENCH_ROWS: customers and payouts seeded through the store before the server
// starts; BENCH_SANDBOX: the dist/sandbox.js of another build (engines.mjs runs the build before PostgreSQL so).
import { pathToFileURL } from "node:url";
import { seed } from "./seed.mjs";

const { createSandbox } = await import(
  process.env.BENCH_SANDBOX ? pathToFileURL(process.env.BENCH_SANDBOX).href : "../dist/sandbox.js"
);

const started = performance.now();
let openMs = 0;
const sandbox = await createSandbox(
  {
    port: 0,
    organizations: [{ name: "Bench", apiKey: process.env.BENCH_KEY, apiSecret: process.env.BENCH_SECRET }],
    autoProgressMs: false,
    ...(process.env.BENCH_DB ? { db: process.env.BENCH_DB } : {}),
    ...(process.env.BENCH_LOG_MAX ? { requestLog: { maxEntries: Number(process.env.BENCH_LOG_MAX) } } : {}),
  },
  {
    prepare: async (store, organizations) => {
      // The store is open (file locked, schema checked) when this runs: the database's share of a restart.
      openMs = performance.now() - started;
      await seed(store, organizations, Number(process.env.BENCH_ROWS ?? 0));
    },
  },
);
const startMs = performance.now() - started;
process.send?.({ url: sandbox.url, startMs, openMs, dashboard: sandbox.dashboard[0]?.url });
process.on("message", async (message) => {
  if (message === "rss") process.send?.({ rss: process.memoryUsage().rss });
  if (message === "cpu") process.send?.({ cpu: process.cpuUsage() });
  if (message === "close") {
    await sandbox.close();
    process.exit(0);
  }
});
