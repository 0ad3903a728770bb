// The request log's cost per request, in process (event-loop time the server spends on it): an answered
// request of a list call (a 60-byte query, a 3.8 KB answer) made into an entry and appended in batches of 50,
// as the server does, on the in-memory database and on a file. Run after `pnpm build`:
//   node bench/request-log-cost.mjs
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { entryOf } from "../dist/request-log/entry.js";
import { REQUEST_LOG_TABLE_SQL, RequestLogTable } from "../dist/request-log/log-table.js";
import { Store } from "../dist/store/store.js";

const N = 20_000;
const answer = { status: 200, text: JSON.stringify({ data: { results: "x".repeat(3800) } }), errCode: null };
const answered = {
  method: "GET",
  target: { path: "/cms/api/v1/customer/list", search: "page=1&per_page=20" },
  headers: {},
  route: { path: "/cms/api/v1/customer/list", operation: { operationId: "listCustomers" } },
  raw: Buffer.alloc(0),
  answer,
  fault: null,
  startedAt: performance.now(),
};

async function measure(path) {
  const store = await Store.open({ ...(path ? { path } : {}), featureSchema: [REQUEST_LOG_TABLE_SQL] });
  const requestLog = new RequestLogTable({ prepare: (sql) => store.statement(sql) });
  const options = { maxBodyBytes: 8192, secrets: ["bench_secret"], nowMs: Date.now(), nowPerf: performance.now() };
  const started = performance.now();
  for (let i = 0; i < N; i += 50) {
    const batch = [];
    for (let j = 0; j < 50; j++) batch.push(entryOf(answered, options));
    await store.transaction(() => requestLog.append("org", batch, 10_000));
  }
  const perRequest = ((performance.now() - started) * 1000) / N;
  await store.close();
  return perRequest;
}

const dir = mkdtempSync(join(tmpdir(), "request-log-cost-"));
console.log(`in memory: ${(await measure()).toFixed(1)} µs per request (${N} requests, bound 10,000)`);
console.log(`on a file: ${(await measure(join(dir, "sandbox.db"))).toFixed(1)} µs per request`);
rmSync(dir, { recursive: true, force: true });
