// Issue 33's two designs for a request path on PostgreSQL that does not block the event loop, prototyped side by
// side with the sandbox's present one on a one-table stand-in (bench/design-server.mjs): GET by id and unique
// creates at 100 connections, one server process each, in one run on one throwaway cluster (fsync off, as the
// engines bench). req/s, p50/p99, non-2xx, and CPU per request of the server and of the server with PostgreSQL.
//   env: BENCH_SECONDS=5  BENCH_DESIGNS=sync,workers-2,workers-4,async
import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import pg from "pg";
import { startPostgres } from "../test/support/postgres-server.ts";
import { fire, killChildren, rotating, startChild } from "./harness.mjs";
import { postgresCpu } from "./postgres-cpu.mjs";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const DESIGNS = (process.env.BENCH_DESIGNS ?? "sync,workers-2,workers-4,async").split(",");
const CONNECTIONS = 100;
const ROWS = 1000;

const postgres = await startPostgres();
const results = [];
try {
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query("CREATE TABLE customer (seq BIGSERIAL, id TEXT PRIMARY KEY, client_ref TEXT UNIQUE, json TEXT)");
  const ids = Array.from({ length: ROWS }, () => randomUUID());
  for (const id of ids)
    await admin.query("INSERT INTO customer (id, client_ref, json) VALUES ($1, $2, $3)", [
      id,
      `seed-${id}`,
      JSON.stringify({ id, full_name: "Asha Verma" }),
    ]);
  await admin.end();
  const databaseCpu = postgresCpu(postgres.port);
  const creates = {
    requests: [
      {
        method: "POST",
        setupRequest: (request) => ({
          ...request,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ client_reference_id: randomUUID() }),
        }),
      },
    ],
  };
  for (const design of DESIGNS) {
    const server = await startChild("./design-server.mjs", { DESIGN: design, BENCH_DB: postgres.url });
    try {
      await fire([server.url], "/c/x", {}, { seconds: 1, connections: CONNECTIONS });
      const byId = rotating(ids.slice(0, 100).map((id) => `/c/${id}`));
      for (const [operation, path, request] of [
        ["GET by id", "/", byId],
        ["create", "/c", creates],
      ]) {
        const [cpu, db] = [await server.cpuUs(), databaseCpu()];
        const r = await fire([server.url], path, request, { seconds: SECONDS, connections: CONNECTIONS });
        const per = (us) => Math.round(us / Math.max(1, r.total));
        const row = {
          design,
          operation,
          ...r,
          cpuUs: per((await server.cpuUs()) - cpu),
          allUs: per((await server.cpuUs()) - cpu + databaseCpu() - db),
        };
        results.push(row);
        console.error(
          `${design} ${operation}: ${Math.round(r.rps)} req/s, p50 ${r.p50}, p99 ${r.p99}, non-2xx ${r.non2xx}, ${row.cpuUs} / ${row.allUs} µs`,
        );
      }
    } finally {
      await server.stop();
    }
  }
} finally {
  killChildren();
  postgres.stop();
}
const [load1] = loadavg();
console.log(
  `\nDesigns at ${CONNECTIONS} connections, ${SECONDS} s per case, load average ${load1.toFixed(1)} at the end:\n`,
);
console.log("| design | operation | req/s | p50/p99 ms | non-2xx | CPU µs/request: server / with PostgreSQL |");
console.log("| - | - | -: | -: | -: | -: |");
for (const r of results)
  console.log(
    `| ${r.design} | ${r.operation} | ${Math.round(r.rps)} | ${r.p50}/${r.p99} | ${r.non2xx} | ${r.cpuUs} / ${r.allUs} |`,
  );
