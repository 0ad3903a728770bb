// The thread that talks to PostgreSQL for the sandboxes of a process. The store's code is synchronous (one request
// is one transaction run start to end, as on SQLite), so a sandbox's thread hands each statement to this thread
// and sleeps on a shared flag until the answer is posted back (pg-bridge.ts). Each sandbox is a session here with
// one connection of its own: its thread never has two statements in flight. One thread serves every session of
// the process, so a second sandbox does not pay for a thread and for loading pg again. Kept free of the package's
// own modules so that Node can run it from source (type stripping) as well as from dist.
import { type MessagePort, parentPort } from "node:worker_threads";
import pg from "pg";

interface Request {
  readonly id: number;
  readonly text: string;
  readonly values: ReadonlyArray<string | number | null>;
  /** Part of an open transaction: only the connection that began it may run it. */
  readonly inTransaction: boolean;
}

/** A session's settings, sent with its port when a sandbox opens its database. */
interface Setup {
  readonly url: string;
  readonly port: MessagePort;
  readonly flag: Int32Array;
  /** Milliseconds a statement or a connection attempt may take before it fails. */
  readonly timeoutMs: number;
}

// COUNT(*) and identity columns are int8: numbers here, as node:sqlite gives them (all stay below 2^53).
pg.types.setTypeParser(20, (value: string) => Number(value));

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

/**
 * The failure as the sandbox's thread sees it: `code` is a SQLSTATE only when PostgreSQL (or this thread,
 * standing for it) said one; a failure of the connection itself (ECONNREFUSED, a timeout) has none.
 */
function describe(error: unknown): Record<string, unknown> {
  const e = error as { message?: string; code?: string; sqlstate?: string; constraint?: string };
  const sqlstate = e?.sqlstate ?? (error instanceof pg.DatabaseError ? e.code : undefined);
  return { message: String(e?.message ?? error), code: sqlstate, constraint: e?.constraint };
}

const failure = (message: string, sqlstate: string) => Object.assign(new Error(message), { sqlstate });

/** Ends the session: its connection, then its port. Answered once done. */
interface Close {
  readonly id: number;
  readonly close: true;
}

class Session {
  private readonly setup: Setup;
  private client: pg.Client | undefined;
  // Statements arrive one at a time (the sandbox's thread waits for each answer), so they run in order.
  private queue = Promise.resolve();

  constructor(setup: Setup) {
    this.setup = setup;
    setup.port.on("message", (request: Request | Close) => {
      this.queue = this.queue.then(() => ("close" in request ? this.close(request.id) : this.run(request)));
    });
  }

  private async connected(): Promise<pg.Client> {
    if (this.client) return this.client;
    const { url, timeoutMs } = this.setup;
    const fresh = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
      statement_timeout: timeoutMs,
      application_name: "exchange-kit-sandbox",
    });
    // A connection that breaks (server restart, network) is dropped; the next statement opens a new one.
    fresh.on("error", () => {
      if (this.client === fresh) this.client = undefined;
    });
    try {
      await fresh.connect();
    } catch (error) {
      fresh.end().catch(() => {});
      throw error;
    }
    this.client = fresh;
    return fresh;
  }

  private answer(reply: Record<string, unknown>): void {
    const { port, flag } = this.setup;
    port.postMessage(reply);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  }

  private async run(request: Request): Promise<void> {
    try {
      if (request.inTransaction && !this.client)
        throw failure("the connection to PostgreSQL was lost during the transaction", "08006");
      const db = await this.connected();
      const result = await db.query(config(request));
      const last = Array.isArray(result) ? result[result.length - 1] : result;
      this.answer({ id: request.id, ok: true, rows: last?.rows ?? [], changes: last?.rowCount ?? 0 });
    } catch (error) {
      if (this.client && !(error instanceof pg.DatabaseError)) {
        // The connection itself failed (timeout, reset): never reuse it.
        const broken = this.client;
        this.client = undefined;
        broken.end().catch(() => {});
      }
      this.answer({ id: request.id, ok: false, error: describe(error) });
    }
  }

  private async close(id: number): Promise<void> {
    await this.client?.end().catch(() => {});
    this.client = undefined;
    this.answer({ id, ok: true, rows: [], changes: 0 });
    this.setup.port.close();
  }
}

parentPort?.on("message", (setup: Setup) => {
  new Session(setup);
});
