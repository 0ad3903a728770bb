// The sandbox's engines side by side in one run (issue 20): a --db SQLite file as built now and as built before
// the PostgreSQL engine landed, and PostgreSQL with 1 and with 2 replicas (processes on one database, the load
// generator's connections spread over them in turn). At each row count: GET by id, list page 1 and unique-reference
// creates at 100 connections, list page 1 and a middle page from a single client. The PostgreSQL server is a
// throwaway cluster (test/support/postgres-server.ts: fsync off, as SQLite's synchronous=NORMAL does not fsync a
// commit either); every case gets a fresh file or database, seeded before it starts (seed-copies.mjs).
// Usage: node bench/engines.mjs (pnpm bench runs it after run.mjs)
//   env: BENCH_ENGINE_ROWS=1000,100000  BENCH_ENGINES=sqlite-before,sqlite,postgres,postgres-2  BENCH_SECONDS=5
//        BENCH_ENGINE_CONNECTIONS=100  BEFORE=<another build's dist/sandbox.js> (else the commit before PostgreSQL
//        is built into a temporary directory; BENCH_BEFORE_REF=<commit> builds that one instead). postgres-before and
//        postgres-before-<n> run that build on PostgreSQL (give it a BENCH_BEFORE_REF that has the engine).
//        BENCH_ENGINE_CASES=get,list,one,create (the default: all; "one" is the two single-client rows)
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseJson } from "@exchange-kit/signing";
import pg from "pg";
import { startPostgres } from "../test/support/postgres-server.ts";
import { buildAt, commitBeforePostgres } from "./before-build.mjs";
import { CREATE, fire, killChildren, LIST, rotating, signed, startChild, uniqueCreate } from "./harness.mjs";
import { growPostgresSeed, growSqliteSeed } from "./seed-copies.mjs";
import { postgresCpu } from "./postgres-cpu.mjs";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_ENGINE_CONNECTIONS ?? 100);
const SIZES = (process.env.BENCH_ENGINE_ROWS ?? "1000,100000").split(",").map(Number);
const ENGINES = (process.env.BENCH_ENGINES ?? "sqlite-before,sqlite,postgres,postgres-2").split(",");
const WANTED = new Set((process.env.BENCH_ENGINE_CASES ?? "get,list,one,create").split(","));
const MIDDLE = (rows) => `/cms/api/v1/customer/list?page=${Math.max(1, Math.floor(rows / 40))}&per_page=20`;

const dir = mkdtempSync(join(tmpdir(), "sandbox-engines-"));
let postgres;
let before;

/** Everything this run started goes, whatever happened: servers, the cluster, the build, the files. */
function cleanUp() {
  killChildren();
  try {
    postgres?.stop();
  } finally {
    postgres = undefined;
    before?.remove();
    rmSync(dir, { recursive: true, force: true });
  }
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    cleanUp();
    process.exit(130);
  });
}

function serve(env) {
  return startChild("./serve.mjs", env);
}

/** A SQLite file of `rows` seeded rows under the given build (undefined: this checkout's dist). */
async function startSqlite(name, rows, sandbox) {
  const file = join(dir, `${name}-${rows}.db`);
  const env = { BENCH_DB: file, ...(sandbox ? { BENCH_SANDBOX: sandbox } : {}) };
  const started = performance.now();
  // The sandbox writes the first rows and the schema; the rest are copied while no sandbox holds the file.
  await (await serve({ ...env, BENCH_ROWS: rows > 0 ? "1" : "0" })).stop();
  growSqliteSeed(file, rows);
  const server = await serve(env);
  return {
    urls: [server.url],
    cpuUs: () => server.cpuUs(),
    readyMs: performance.now() - started,
    stop: async () => {
      await server.stop();
      for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
    },
  };
}

/** A fresh database of `rows` seeded rows and `replicas` sandboxes on it, of the given build (undefined: this one). */
async function startPostgresReplicas(replicas, rows, sandbox) {
  const name = `bench_${replicas}_${rows}${sandbox ? "_before" : ""}`;
  const build = sandbox ? { BENCH_SANDBOX: sandbox } : {};
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = postgres.url.replace(/\/postgres$/, `/${name}`);
  const started = performance.now();
  const servers = [await serve({ ...build, BENCH_DB: url, BENCH_ROWS: rows > 0 ? "1" : "0" })];
  await growPostgresSeed(url, rows);
  for (let i = 1; i < replicas; i++) servers.push(await serve({ ...build, BENCH_DB: url }));
  return {
    urls: servers.map((s) => s.url),
    cpuUs: async () => (await Promise.all(servers.map((s) => s.cpuUs()))).reduce((a, b) => a + b, 0),
    databaseCpuUs: postgresCpu(postgres.port),
    readyMs: performance.now() - started,
    stop: async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await admin.query(`DROP DATABASE ${name}`);
      await admin.end();
    },
  };
}

function startEngine(engine, rows) {
  if (engine === "sqlite") return startSqlite(engine, rows, undefined);
  if (engine === "sqlite-before") return startSqlite(engine, rows, before.sandbox);
  const replicas = /^postgres(-before)?(?:-(\d+))?$/.exec(engine);
  if (replicas) return startPostgresReplicas(Number(replicas[2] ?? 1), rows, replicas[1] ? before.sandbox : undefined);
  throw new Error(
    `unknown engine ${engine} (BENCH_ENGINES takes sqlite-before, sqlite, postgres, postgres-<n>, postgres-before, postgres-before-<n>)`,
  );
}

/** The paths of GET by id: the customers of the first list page of 100 (read as the client reads a body). */
async function customerPaths(url) {
  const response = await fetch(`${url}/cms/api/v1/customer/list?page=1&per_page=100`, signed("GET"));
  const page = parseJson(await response.text());
  const ids = page.data.results.map((customer) => customer.id);
  if (ids.length === 0) throw new Error("no customer to GET: seed at least one row");
  return ids.map((id) => `/cms/api/v1/customer/${id}`);
}

const results = [];
function record(engine, rows, operation, connections, r) {
  results.push({ engine, rows, operation, connections, ...r });
  console.error(
    `${engine} ${rows} ${operation} c=${connections}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms, ${Math.round(r.cpuUs)} µs CPU/request, non-2xx ${r.non2xx}${r.failures ? ` (${r.failures})` : ""}, errors ${r.errors}`,
  );
}

/**
 * One case, with the CPU time the sandbox processes spent per answered request (little moved by other load), and
 * that of the sandbox and the PostgreSQL cluster together (`allCpuUs`; the sandbox's alone on SQLite).
 */
async function timed(target, path, request, options) {
  const databaseCpu = target.databaseCpuUs ?? (() => 0);
  const [before, databaseBefore] = [await target.cpuUs(), databaseCpu()];
  const result = await fire(target.urls, path, request, options);
  const cpuUs = (await target.cpuUs()) - before;
  const databaseUs = databaseCpu() - databaseBefore;
  const per = (us) => (result.total > 0 ? us / result.total : Number.NaN);
  return { ...result, cpuUs: per(cpuUs), allCpuUs: per(cpuUs + databaseUs) };
}

async function measure(engine, rows, target) {
  const urls = target.urls;
  const byId = rotating(await customerPaths(urls[0]));
  const many = { seconds: SECONDS, connections: CONNECTIONS };
  const one = { seconds: Math.max(1, Math.ceil(SECONDS / 2)), connections: 1 };
  // Warm-up: each replica's statements prepared, its code optimized.
  await fire(urls, LIST, signed("GET"), { seconds: 1, connections: CONNECTIONS });
  if (WANTED.has("get")) record(engine, rows, "GET by id", CONNECTIONS, await timed(target, "/", byId, many));
  if (WANTED.has("list"))
    record(engine, rows, "list page 1", CONNECTIONS, await timed(target, LIST, signed("GET"), many));
  if (WANTED.has("one")) {
    record(engine, rows, "list page 1", 1, await timed(target, LIST, signed("GET"), one));
    record(engine, rows, "list middle page", 1, await timed(target, MIDDLE(rows), signed("GET"), one));
  }
  // Last: the creates add rows (thousands), which the reads above should not see.
  if (WANTED.has("create"))
    record(engine, rows, "create", CONNECTIONS, await timed(target, CREATE, uniqueCreate(), many));
}

const facts = [];
try {
  if (ENGINES.some((e) => e.startsWith("postgres"))) postgres = await startPostgres();
  if (ENGINES.some((e) => e.includes("-before"))) {
    before = process.env.BEFORE
      ? { commit: process.env.BEFORE, sandbox: resolve(process.env.BEFORE), remove: () => {} }
      : buildAt(process.env.BENCH_BEFORE_REF ?? commitBeforePostgres());
  }
  for (const rows of SIZES) {
    for (const engine of ENGINES) {
      const target = await startEngine(engine, rows);
      facts.push({ engine, rows, readyMs: target.readyMs });
      try {
        await measure(engine, rows, target);
      } finally {
        await target.stop();
      }
    }
  }
} finally {
  cleanUp();
}

function find(engine, rows, operation, connections) {
  return results.find(
    (x) => x.engine === engine && x.rows === rows && x.operation === operation && x.connections === connections,
  );
}

function ratio(engine, operation, connections, numerator, denominator, measure = "rps") {
  const a = find(numerator.engine ?? engine, numerator.rows, operation, connections);
  const b = find(denominator.engine ?? engine, denominator.rows, operation, connections);
  return a && b ? (a[measure] / b[measure]).toFixed(2) : "–";
}

const CASES = [
  ["GET by id", CONNECTIONS],
  ["list page 1", CONNECTIONS],
  ["create", CONNECTIONS],
  ["list page 1", 1],
  ["list middle page", 1],
];

/** One table: a row per row count and case, a column per engine, `show` filling each cell from its result. */
function printMatrix(show) {
  console.log(`| rows | operation | conn. | ${ENGINES.join(" | ")} |`);
  console.log(`| -: | - | -: | ${ENGINES.map(() => "-:").join(" | ")} |`);
  for (const rows of SIZES) {
    for (const [operation, connections] of CASES) {
      const cells = ENGINES.map((e) => find(e, rows, operation, connections)).map((r) => (r ? show(r) : "–"));
      console.log(`| ${rows} | ${operation} | ${connections} | ${cells.join(" | ")} |`);
    }
  }
}

function printReady() {
  console.log(`\n| engine | ready (start + seed) ms at ${SIZES.join(" / ")} rows |`);
  console.log("| - | - |");
  for (const engine of ENGINES) {
    const ready = SIZES.map((rows) => facts.find((f) => f.engine === engine && f.rows === rows)?.readyMs);
    console.log(`| ${engine} | ${ready.map((ms) => (ms === undefined ? "–" : Math.round(ms))).join(" / ")} |`);
  }
}

/** SQLite as built now against the build before PostgreSQL: throughput, and CPU per request (less moved by load). */
function printBeforeAfter() {
  if (!ENGINES.includes("sqlite-before") || !ENGINES.includes("sqlite")) return;
  const now = (rows, measure) =>
    CASES.map(
      ([op, c]) => `${op} c=${c} ${ratio("sqlite", op, c, { rows }, { rows, engine: "sqlite-before" }, measure)}`,
    ).join(", ");
  console.log("\nSQLite now / before, req/s (goal: not worse, about 1 or more):");
  for (const rows of SIZES) console.log(`- ${rows} rows: ${now(rows, "rps")}`);
  console.log("SQLite now / before, CPU per request (goal: not more, about 1 or less):");
  for (const rows of SIZES) console.log(`- ${rows} rows: ${now(rows, "cpuUs")}`);
}

function printGoals() {
  const [small, large] = [SIZES[0], SIZES.at(-1)];
  console.log(`\nCreates/s at ${large} rows / at ${small} rows (goal: no slowdown, about 1 or more):`);
  for (const engine of ENGINES) {
    console.log(`- ${engine}: ${ratio(engine, "create", CONNECTIONS, { rows: large }, { rows: small })}`);
  }
  for (const engine of ENGINES.filter((e) => e.startsWith("postgres"))) {
    const r = find(engine, large, "list page 1", 1);
    if (r) console.log(`${engine}: list page 1 p50 at ${large} rows, one client: ${r.p50} ms (goal <= 10 ms)`);
  }
}

function printTables() {
  const [load1, load5] = loadavg();
  console.log(
    `\nEngines: req/s · p50/p99 ms; ${CONNECTIONS} connections (1 for the single-client rows), ${SECONDS} s per case (half for one client), loopback, signed requests; load average ${load1.toFixed(1)} / ${load5.toFixed(1)} at the end${before ? `; *-before = ${before.commit}` : ""}\n`,
  );
  printMatrix((r) => `${Math.round(r.rps)} · ${r.p50}/${r.p99}`);
  console.log("\nCPU of the sandbox process(es) per answered request, µs (PostgreSQL's own CPU not included):\n");
  printMatrix((r) => String(Math.round(r.cpuUs)));
  console.log("\nCPU of the sandbox process(es) and the PostgreSQL cluster together per answered request, µs:\n");
  printMatrix((r) => String(Math.round(r.allCpuUs)));
  printReady();
  printBeforeAfter();
  printGoals();
  const failed = results.filter((r) => r.non2xx > 0 || r.errors > 0);
  if (failed.length > 0) {
    console.log(`\n${failed.length} case(s) had non-2xx answers or errors.`);
    process.exitCode = 1;
  }
}

printTables();
