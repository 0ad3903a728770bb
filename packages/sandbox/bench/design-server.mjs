// A prototype of each request-path design issue 33 weighs, on a one-table stand-in for the sandbox (no domain, no
// signature): GET /c/<id> is one SERIALIZABLE transaction reading a row, POST /c one that checks a unique
// reference and inserts a row (rerun when it loses a race). DESIGN picks how the transaction runs:
//   sync      the sandbox as it is: the statements through the synchronous bridge (pg-bridge.ts), the event loop
//             blocked on each round trip;
//   workers-N N request worker threads, each running the synchronous transaction on its own bridge and
//             connection; the main thread parses HTTP and answers;
//   async     node-postgres with a pool of 10 connections, the transaction awaited, nothing blocked.
// Forked by bench/designs.mjs with BENCH_DB; answers its CPU time as serve.mjs does.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import pg from "pg";

const GET_SQL = "SELECT json FROM customer WHERE id = ?";
const FIND_SQL = "SELECT id FROM customer WHERE client_ref = ?";
const INSERT_SQL = "INSERT INTO customer (id, client_ref, json) VALUES (?, ?, ?)";

const { isRetryableConflict, PostgresDatabase } = await import("../dist/store/postgres/pg-database.js");

/** One request as a synchronous transaction on `db` (a PostgresDatabase), rerun when it loses a race. */
function syncTransaction(db, op, arg) {
  for (;;) {
    db.exec("BEGIN");
    try {
      const result = op === "get" ? db.prepare(GET_SQL).get(arg) : create(db, arg);
      db.exec("COMMIT");
      return op === "get" ? (result?.json ?? null) : result;
    } catch (error) {
      if (db.isTransaction) db.exec("ROLLBACK");
      if (!isRetryableConflict(error)) throw error;
    }
  }
}

function create(db, ref) {
  if (db.prepare(FIND_SQL).get(ref)) return null;
  const id = randomUUID();
  const json = JSON.stringify({ id, client_reference_id: ref, full_name: "Asha Verma" });
  db.prepare(INSERT_SQL).run(id, ref, json);
  return json;
}

/** The same transaction, awaited on a pooled connection. */
async function asyncTransaction(pool, op, arg) {
  const numbered = (sql) => sql.replace(/\?/g, (_, i, s) => `$${s.slice(0, i).split("?").length}`);
  for (;;) {
    const client = await pool.connect();
    try {
      await client.query("BEGIN ISOLATION LEVEL SERIALIZABLE");
      let result;
      if (op === "get") result = (await client.query(numbered(GET_SQL), [arg])).rows[0]?.json ?? null;
      else if ((await client.query(numbered(FIND_SQL), [arg])).rows.length > 0) result = null;
      else {
        const id = randomUUID();
        result = JSON.stringify({ id, client_reference_id: arg, full_name: "Asha Verma" });
        await client.query(numbered(INSERT_SQL), [id, arg, result]);
      }
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      if (error.code !== "40001" && error.code !== "40P01") throw error;
    } finally {
      client.release();
    }
  }
}

/** N worker threads, each with its own bridge; a request goes to an idle one or waits its turn. */
function workerPool(n, url) {
  const idle = [];
  const waiting = [];
  let next = 0;
  const pending = new Map();
  for (let i = 0; i < n; i++) {
    const worker = new Worker(new URL(import.meta.url), { workerData: { url } });
    worker.on("message", ({ id, ok, value, error }) => {
      const settle = pending.get(id);
      pending.delete(id);
      ok ? settle.resolve(value) : settle.reject(new Error(error));
      const queued = waiting.shift();
      if (queued) queued(worker);
      else idle.push(worker);
    });
    idle.push(worker);
  }
  return (op, arg) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve, reject });
      const send = (worker) => worker.postMessage({ id, op, arg });
      const worker = idle.pop();
      if (worker) send(worker);
      else waiting.push(send);
    });
}

async function runner(design, url) {
  if (design === "async") {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    return { run: (op, arg) => asyncTransaction(pool, op, arg), close: () => pool.end() };
  }
  const workers = /^workers-(\d+)$/.exec(design);
  if (workers) return { run: workerPool(Number(workers[1]), url), close: () => {} };
  const db = new PostgresDatabase(url, 5000);
  return { run: async (op, arg) => syncTransaction(db, op, arg), close: () => db.close() };
}

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

async function serveMain() {
  const { run, close } = await runner(process.env.DESIGN, process.env.BENCH_DB);
  const server = createServer(async (req, res) => {
    try {
      const body = await readBody(req);
      const [op, arg] =
        req.method === "POST" ? ["create", JSON.parse(body).client_reference_id] : ["get", req.url.slice(3)];
      const json = await run(op, arg);
      res.writeHead(json === null ? (op === "get" ? 404 : 400) : 200, { "content-type": "application/json" });
      res.end(json ?? "{}");
    } catch (error) {
      res.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ error: String(error) }));
    }
  });
  server.listen(0, "127.0.0.1", () => process.send({ url: `http://127.0.0.1:${server.address().port}` }));
  process.on("message", (message) => {
    if (message === "cpu") process.send({ cpu: process.cpuUsage() });
    if (message === "close") server.close(() => Promise.resolve(close()).finally(() => process.exit(0)));
  });
}

if (isMainThread) await serveMain();
else {
  const db = new PostgresDatabase(workerData.url, 5000);
  parentPort.on("message", ({ id, op, arg }) => {
    try {
      parentPort.postMessage({ id, ok: true, value: syncTransaction(db, op, arg) });
    } catch (error) {
      parentPort.postMessage({ id, ok: false, error: String(error) });
    }
  });
}
