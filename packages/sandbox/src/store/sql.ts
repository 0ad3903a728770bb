// What the store needs of a database, for either engine: statements whose answers are awaited, scripts, and
// transactions. A transaction runs its work on one connection; every statement the work runs (through any
// statement prepared on the database) goes to that connection, found through the async context, so the store's
// tables need not be handed the transaction. On SQLite (one connection, node:sqlite, synchronous) transactions
// take turns: a statement outside one waits for the open one to end instead of joining it.
import { AsyncLocalStorage } from "node:async_hooks";
import type { DatabaseSync, StatementSync } from "node:sqlite";

export type SqlValue = string | number | null;

export interface SqlStatement {
  get(...values: SqlValue[]): Promise<unknown>;
  all(...values: SqlValue[]): Promise<unknown[]>;
  run(...values: SqlValue[]): Promise<{ changes: number }>;
  /**
   * Runs a write whose answer is not needed. Inside a transaction on PostgreSQL it may travel with the
   * transaction's next statement or its COMMIT (pg-batch.ts): its failure then fails that statement, and the
   * transaction with it. Elsewhere it runs as `run` does.
   */
  write(...values: SqlValue[]): Promise<void>;
  /**
   * A read asked ahead: inside a transaction on PostgreSQL it travels with the transaction's next message (its
   * BEGIN, say) and costs no round trip of its own. Answers a function that gives its rows, sending what is held
   * first if nothing has carried it yet. Elsewhere it reads at once.
   *
   * @example
   * const rows = statement.ahead(key); // nothing sent yet
   * await other.get(id); // carries the read
   * await rows(); // its rows, no round trip
   */
  ahead(...values: SqlValue[]): () => Promise<unknown[]>;
}

/**
 * How a transaction isolates itself: "serializable"; "read-committed" (the request log's batches, and on PostgreSQL
 * the writers, which take turns: see PostgresDatabase.transaction); "read-only" (one snapshot, no write allowed: a
 * GET); or the engine's default (schema work). SQLite runs every one serializable.
 */
export type Isolation = "serializable" | "read-committed" | "read-only" | "default";

/**
 * How a writer takes its turn among every writer of the database (replicas included): "optimistic" (it reads
 * before, with the writers that start beside it, and checks at the turn that what it read still holds:
 * postgres/optimistic-group.ts), "grouped" (in its replica's line, perhaps sharing a transaction with the writers
 * beside it: postgres/writer-line.ts) or "alone" (a transaction of its own, which waits for the turn in the
 * database).
 */
export type WritersTurn = "optimistic" | "grouped" | "alone";

export interface SqlDatabase {
  readonly engine: "sqlite" | "postgres";
  /** A statement; nothing is sent until it runs. */
  prepare(sql: string): SqlStatement;
  /** Runs a script (statements separated by semicolons, no values): in the open transaction when there is one. */
  exec(sql: string): Promise<void>;
  /**
   * Runs `work` as one transaction: committed when it resolves, rolled back (and the error rethrown) when it
   * rejects. `turn`: a writer, taking its turn among every writer of the database first (see WritersTurn).
   */
  transaction<R>(isolation: Isolation, work: () => Promise<R>, turn?: WritersTurn): Promise<R>;
  /** Whether the calling code runs inside a transaction of this database. */
  readonly inTransaction: boolean;
  close(): Promise<void>;
}

/** A FIFO lock with `capacity` holders at once (one by default): who holds it runs; the others wait in order. */
export class Turns {
  private holders = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly capacity = 1) {}

  /** Resolves when the caller holds the lock (at once when it is free: no promise to wait on). */
  take(): Promise<void> | undefined {
    if (this.holders < this.capacity) {
      this.holders++;
      return undefined;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.holders--;
  }

  get isHeld(): boolean {
    return this.holders > 0;
  }
}

/** node:sqlite's synchronous connection behind the store's asynchronous surface. */
export class SqliteDatabase implements SqlDatabase {
  readonly engine = "sqlite";
  private readonly turns = new Turns();
  /**
   * The transaction the calling code runs in. Work a transaction started and left behind (a timer) keeps this
   * context after the transaction ends: `open` tells it the transaction is over, so it waits its turn like any other.
   */
  private readonly scope = new AsyncLocalStorage<{ open: boolean }>();

  constructor(readonly connection: DatabaseSync) {}

  get inTransaction(): boolean {
    return this.scope.getStore()?.open === true;
  }

  /** Runs one synchronous call now (inside the open transaction, or when none is open), else after it ends. */
  private run<T>(call: () => T): Promise<T> {
    if (this.inTransaction || !this.turns.isHeld) {
      try {
        return Promise.resolve(call());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return this.afterTurn(call);
  }

  private async afterTurn<T>(call: () => T): Promise<T> {
    await this.turns.take();
    try {
      return call();
    } finally {
      this.turns.give();
    }
  }

  prepare(sql: string): SqlStatement {
    let prepared: StatementSync | undefined;
    const statement = () => {
      prepared ??= this.connection.prepare(sql);
      return prepared;
    };
    return {
      get: (...values) => this.run(() => statement().get(...values)),
      all: (...values) => this.run(() => statement().all(...values)),
      run: (...values) => this.run(() => ({ changes: Number(statement().run(...values).changes) })),
      write: (...values) =>
        this.run(() => {
          statement().run(...values);
        }),
      ahead: (...values) => {
        const rows = this.run(() => statement().all(...values));
        rows.catch(() => {});
        return () => rows;
      },
    };
  }

  exec(sql: string): Promise<void> {
    return this.run(() => this.connection.exec(sql));
  }

  /** SQLite's transactions are serializable whatever `isolation` asks, and take turns on its one connection. */
  async transaction<R>(_isolation: Isolation, work: () => Promise<R>): Promise<R> {
    await this.turns.take();
    try {
      const scope = { open: true };
      try {
        return await this.scope.run(scope, () => this.once(work));
      } finally {
        scope.open = false;
      }
    } finally {
      this.turns.give();
    }
  }

  private async once<R>(work: () => Promise<R>): Promise<R> {
    this.connection.exec("BEGIN");
    try {
      const result = await work();
      this.connection.exec("COMMIT");
      return result;
    } catch (error) {
      // SQLite may have rolled it back itself (a full disk); the error that failed it is the one to report.
      try {
        if (this.connection.isTransaction) this.connection.exec("ROLLBACK");
      } catch {}
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.turns.take();
    try {
      this.connection.close();
    } finally {
      this.turns.give();
    }
  }
}
