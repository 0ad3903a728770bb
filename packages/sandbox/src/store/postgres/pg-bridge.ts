// A synchronous connection to PostgreSQL: the store's statements run on a worker thread (pg-worker.ts) while
// this thread waits on a shared flag, so the sandbox's request code stays one synchronous transaction per
// request on either engine. A replica has one statement in flight at a time; replicas are processes.
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";

export type SqlValue = string | number | null;

/** A failure PostgreSQL reported (with its SQLSTATE) or the connection's (no code). */
export class PostgresError extends Error {
  readonly code: string | undefined;
  readonly constraint: string | undefined;
  constructor(message: string, code: string | undefined, constraint?: string) {
    super(message);
    this.name = "PostgresError";
    this.code = code;
    this.constraint = constraint;
  }
}

interface Reply {
  readonly id: number;
  readonly ok: boolean;
  readonly rows?: Array<Record<string, unknown>>;
  readonly changes?: number;
  readonly error?: { message: string; code?: string; constraint?: string };
}

export interface QueryResult {
  readonly rows: Array<Record<string, unknown>>;
  readonly changes: number;
}

function workerUrl(): URL {
  // From source (tests, Node's type stripping) the worker is the .ts file; from dist, the compiled .js.
  const own = import.meta.url;
  return new URL(own.endsWith(".ts") ? "./pg-worker.ts" : "./pg-worker.js", own);
}

let shared: Worker | undefined;

/** The process's one PostgreSQL thread, started with the first sandbox on PostgreSQL; it never holds the process. */
function sharedWorker(): Worker {
  if (!shared) {
    const worker = new Worker(workerUrl());
    worker.unref();
    worker.once("exit", () => {
      if (shared === worker) shared = undefined;
    });
    shared = worker;
  }
  return shared;
}

export class PostgresBridge {
  private readonly port: MessagePort;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private sequence = 0;
  private closed = false;

  /**
   * @param url a postgres:// connection string
   * @param timeoutMs how long a statement (or a connection attempt) may take; past it the call fails, so a
   *   database that is down or stuck fails the request fast instead of holding it
   */
  private readonly timeoutMs: number;

  constructor(url: string, timeoutMs: number) {
    this.timeoutMs = timeoutMs;
    const channel = new MessageChannel();
    this.port = channel.port1;
    const session = { url, port: channel.port2, flag: this.flag, timeoutMs };
    sharedWorker().postMessage(session, [channel.port2]);
  }

  /**
   * Runs one statement (or, without values, several separated by semicolons) and waits for its answer.
   * `inTransaction`: the statement belongs to an open transaction, so it must run on the connection that began
   * it; if that connection was lost, the statement fails (a new connection would commit half a request).
   *
   * @example
   * bridge.query("SELECT json FROM customer WHERE id = $1", ["cus_1"]).rows;
   */
  query(text: string, values: ReadonlyArray<SqlValue> = [], inTransaction = false): QueryResult {
    if (this.closed) throw new PostgresError("the PostgreSQL connection is closed", undefined);
    const id = ++this.sequence;
    this.port.postMessage({ id, text, values, inTransaction });
    const reply = this.await(id);
    if (!reply.ok)
      throw new PostgresError(reply.error?.message ?? "failed", reply.error?.code, reply.error?.constraint);
    return { rows: reply.rows ?? [], changes: reply.changes ?? 0 };
  }

  private receive(id: number): Reply | undefined {
    for (;;) {
      const received = receiveMessageOnPort(this.port) as { message: Reply } | undefined;
      if (!received) return undefined;
      // An answer to an earlier statement that timed out here arrives late: it is dropped.
      if (received.message.id === id) return received.message;
    }
  }

  private await(id: number): Reply {
    // The worker's own timeouts answer first; this one only catches a worker that stopped answering.
    const deadline = Date.now() + this.timeoutMs * 2 + 1000;
    for (;;) {
      const reply = this.receive(id);
      if (reply) return reply;
      Atomics.store(this.flag, 0, 0);
      const raced = this.receive(id);
      if (raced) return raced;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new PostgresError(`PostgreSQL did not answer within ${this.timeoutMs * 2 + 1000} ms`, undefined);
      Atomics.wait(this.flag, 0, 0, left);
    }
  }

  /** Ends the connection (so the database is free for another sandbox when this returns); the thread stays. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const id = ++this.sequence;
    this.port.postMessage({ id, close: true });
    try {
      this.await(id);
    } catch {
      // A server that does not answer keeps nothing of ours once the connection times out.
    }
  }
}
