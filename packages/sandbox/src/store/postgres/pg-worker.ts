// The thread that talks to PostgreSQL for a sandbox replica. The store's code is synchronous (one request is one
// transaction run start to end, as on SQLite), so the replica's main thread hands each statement to this thread
// and sleeps on a shared flag until the answer is posted back (pg-bridge.ts). One connection per replica is all
// it needs: the main thread never has two statements in flight. Kept free of the package's own modules so that
// Node can run it from source (type stripping) as well as from dist.
import { type MessagePort, workerData } from "node:worker_threads";
import pg from "pg";

interface Request {
  readonly id: number;
  readonly text: string;
  readonly values: ReadonlyArray<string | number | null>;
  /** Part of an open transaction: only the connection that began it may run it. */
  readonly inTransaction: boolean;
}

interface Setup {
  readonly url: string;
  readonly port: MessagePort;
  readonly flag: Int32Array;
  /** Milliseconds a statement or a connection attempt may take before it fails. */
  readonly timeoutMs: number;
  /** The key of the lock a connection takes before its first statement: one sandbox per database (schema). */
  readonly ownerLock: number;
}

const setup = workerData as Setup;
// COUNT(*) and identity columns are int8: numbers here, as node:sqlite gives them (all stay below 2^53).
pg.types.setTypeParser(20, (value: string) => Number(value));

let client: pg.Client | undefined;

async function connected(): Promise<pg.Client> {
  if (client) return client;
  const fresh = new pg.Client({
    connectionString: setup.url,
    connectionTimeoutMillis: setup.timeoutMs,
    query_timeout: setup.timeoutMs,
    statement_timeout: setup.timeoutMs,
    application_name: "exchange-kit-sandbox",
  });
  // A connection that breaks (server restart, network) is dropped; the next statement opens a new one.
  fresh.on("error", () => {
    if (client === fresh) client = undefined;
  });
  try {
    await fresh.connect();
    await takeOwnership(fresh);
  } catch (error) {
    fresh.end().catch(() => {});
    throw error;
  }
  client = fresh;
  return fresh;
}

/**
 * Takes the database's owner lock for this connection's life (a session advisory lock, keyed by the schema so
 * schemas of one database are separate sandboxes). Another live sandbox holds it: the start is refused. Scheduled
 * work still runs on timers in the process that scheduled it, so two replicas would both run a restart's steps.
 */
async function takeOwnership(db: pg.Client): Promise<void> {
  const found = await db.query("SELECT pg_try_advisory_lock($1, hashtext(current_schema())) AS held", [
    setup.ownerLock,
  ]);
  if (found.rows[0]?.held === true) return;
  throw Object.assign(new Error("the database is in use by another sandbox"), { sqlstate: "55P03" });
}

/**
 * The failure as the main thread sees it: `code` is a SQLSTATE only when PostgreSQL (or this thread, standing
 * for it) said one; a failure of the connection itself (ECONNREFUSED, a timeout) has none.
 */
function describe(error: unknown): Record<string, unknown> {
  const e = error as { message?: string; code?: string; sqlstate?: string; constraint?: string };
  const sqlstate = e?.sqlstate ?? (error instanceof pg.DatabaseError ? e.code : undefined);
  return { message: String(e?.message ?? error), code: sqlstate, constraint: e?.constraint };
}

function answer(reply: Record<string, unknown>): void {
  setup.port.postMessage(reply);
  Atomics.store(setup.flag, 0, 1);
  Atomics.notify(setup.flag, 0);
}

/** Prepared statements by text: PostgreSQL plans a statement once per connection, not at every call. */
const names = new Map<string, string>();

function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `s${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

function config(request: Request): pg.QueryConfig {
  // Statements without values are schema and transaction control (several per text): the simple protocol.
  if (request.values.length === 0) return { text: request.text };
  return { name: statementName(request.text), text: request.text, values: request.values as unknown[] };
}

async function run(request: Request): Promise<void> {
  try {
    if (request.inTransaction && !client)
      throw Object.assign(new Error("the connection to PostgreSQL was lost during the transaction"), {
        sqlstate: "08006",
      });
    const db = await connected();
    const result = await db.query(config(request));
    const last = Array.isArray(result) ? result[result.length - 1] : result;
    answer({ id: request.id, ok: true, rows: last?.rows ?? [], changes: last?.rowCount ?? 0 });
  } catch (error) {
    if (client && !(error instanceof pg.DatabaseError)) {
      // No SQLSTATE: the connection itself failed (timeout, reset); never reuse it.
      const broken = client;
      client = undefined;
      broken.end().catch(() => {});
    }
    answer({ id: request.id, ok: false, error: describe(error) });
  }
}

// Statements arrive one at a time (the main thread waits for each answer), so they run in order.
let queue = Promise.resolve();
setup.port.on("message", (request: Request | "close") => {
  if (request === "close") {
    queue = queue.then(async () => {
      await client?.end().catch(() => {});
      setup.port.close();
    });
    return;
  }
  queue = queue.then(() => run(request));
});
