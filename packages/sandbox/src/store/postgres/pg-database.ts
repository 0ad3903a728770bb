// PostgreSQL behind the same small surface the store uses of node:sqlite's DatabaseSync (prepare, exec,
// isTransaction, close), so the store's tables, transactions and queries are one code for both engines. A
// transaction is SERIALIZABLE: two replicas that read-then-write the same facts (one quotation, one reference,
// the 3-accounts limit) cannot both commit; the loser's whole request is run again (store.ts).
import { PostgresBridge, PostgresError, type QueryResult, type SqlValue } from "./pg-bridge.js";
import { numberPlaceholders, postgresSchema } from "./pg-dialect.js";

export interface SqlStatement {
  get(...values: SqlValue[]): unknown;
  all(...values: SqlValue[]): unknown[];
  run(...values: SqlValue[]): { changes: number | bigint };
}

/** What the store needs of a database: node:sqlite's DatabaseSync has it, and so does PostgresDatabase. */
export interface SqlDatabase {
  prepare(sql: string): SqlStatement;
  exec(sql: string): void;
  readonly isTransaction: boolean;
  close(): void;
}

/** The key of the advisory lock that schema creation and upgrades hold (any constant; ours, by name). */
export const MIGRATION_LOCK = 0x45584b53; // "EXKS"

/** SQLSTATEs after which the whole transaction may simply be run again. */
const RETRYABLE = new Set(["40001", "40P01"]);

/** Whether a failed transaction lost a race with another one (serialization failure, deadlock) and may rerun. */
export function isRetryableConflict(error: unknown): boolean {
  return error instanceof PostgresError && error.code !== undefined && RETRYABLE.has(error.code);
}

/** How many times in all a transaction that keeps losing serialization races is run before the request gives up. */
export const MAX_CONFLICT_ATTEMPTS = 20;
/** The longest pause between two runs of a transaction that lost a race. */
const CONFLICT_BACKOFF_CAP_MS = 50;

/**
 * After run `attempt` (1 for the first) of a transaction failed with `error`: how many milliseconds to wait
 * before running it again, or undefined when it must not run again (not a lost race, or the runs are used up,
 * when the error goes to the client as 503, see isStoreUnavailable). The wait is "full jitter" (a random share,
 * `random` in [0, 1), of a cap that doubles per run up to 50 ms): replicas whose transactions collided would
 * collide again if they reran in step.
 *
 * @example
 * conflictRetryDelay(new PostgresError("could not serialize access", "40001"), 6, 0.5); // 16
 */
export function conflictRetryDelay(error: unknown, attempt: number, random: number): number | undefined {
  if (!isRetryableConflict(error) || attempt >= MAX_CONFLICT_ATTEMPTS) return undefined;
  return Math.floor(random * Math.min(CONFLICT_BACKOFF_CAP_MS, 2 ** (attempt - 1)));
}

/**
 * Whether a failure means the database cannot be reached or used right now (down, restarting, connection lost,
 * out of connections, too slow), or is so contended that a transaction lost every one of its runs: the request
 * is answered 503 SYS_SERVICE_UNAVAILABLE (a client may send it again), as the service does when it is
 * unavailable, and nothing of it was committed.
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof PostgresError)) return false;
  const code = error.code;
  return code === undefined || /^(08|57P|53)/.test(code) || RETRYABLE.has(code);
}

/** Whether a failure is of the database's reach (down, restarting, connection lost), not of a statement or a race. */
function isUnreachable(error: unknown): boolean {
  return isStoreUnavailable(error) && !isRetryableConflict(error);
}

/**
 * What a statement's outcome says of the database's reach, given whether it was already known to be down: it
 * "dropped" (the first failure of a connection), it "recovered" (the first answer after), or nothing new.
 *
 * @example
 * availabilityChange(false, new PostgresError("connect ECONNREFUSED 127.0.0.1:5432", undefined)); // "dropped"
 * availabilityChange(true, undefined); // "recovered"
 */
export function availabilityChange(down: boolean, error: unknown): "dropped" | "recovered" | undefined {
  if (error === undefined) return down ? "recovered" : undefined;
  return !down && isUnreachable(error) ? "dropped" : undefined;
}

/** Told once when the database stops answering (with the failure) and once when it answers again. */
export type AvailabilityListener = (change: "dropped" | "recovered", error?: unknown) => void;

/** The store's transaction commands, as PostgreSQL is told them. */
const TRANSACTION_CONTROL: Record<string, { statement: string; opens: boolean } | undefined> = {
  BEGIN: { statement: "BEGIN ISOLATION LEVEL SERIALIZABLE", opens: true },
  // Schema work runs at the default isolation, under the migration lock (pg-open.ts).
  "START TRANSACTION": { statement: "BEGIN", opens: true },
  COMMIT: { statement: "COMMIT", opens: false },
  ROLLBACK: { statement: "ROLLBACK", opens: false },
};

export class PostgresDatabase implements SqlDatabase {
  private readonly bridge: PostgresBridge;
  private open = false;
  private down = false;
  private availability: AvailabilityListener = () => {};

  constructor(url: string, timeoutMs: number) {
    this.bridge = new PostgresBridge(url, timeoutMs);
  }

  get isTransaction(): boolean {
    return this.open;
  }

  /** Calls `listener` when the database drops (its first failure) and when it recovers (its first answer after). */
  onAvailability(listener: AvailabilityListener): void {
    this.availability = listener;
  }

  /** A failure to reach the database found outside this connection (the job queue's): noted as its own would be. */
  unreachable(error: PostgresError): void {
    this.observe(error);
  }

  /** One statement through the bridge, watched for the database dropping and coming back. */
  private query(text: string, values: ReadonlyArray<SqlValue> = [], inTransaction = false) {
    let result: QueryResult;
    try {
      result = this.bridge.query(text, values, inTransaction);
    } catch (error) {
      this.observe(error);
      throw error;
    }
    if (this.down) this.observe(undefined);
    return result;
  }

  private observe(error: unknown): void {
    const change = availabilityChange(this.down, error);
    if (!change) return;
    this.down = change === "dropped";
    this.availability(change, error);
  }

  prepare(sql: string): SqlStatement {
    const text = numberPlaceholders(sql);
    return {
      get: (...values) => this.query(text, values, this.open).rows[0],
      all: (...values) => this.query(text, values, this.open).rows,
      run: (...values) => ({ changes: this.query(text, values, this.open).changes }),
    };
  }

  /** Runs a script: transaction control as PostgreSQL says it, SQLite's PRAGMAs skipped, schema rewritten. */
  exec(sql: string): void {
    const command = sql.trim().toUpperCase();
    const control = TRANSACTION_CONTROL[command];
    if (control) this.control(control.statement, control.opens);
    // A script goes as one message (the simple protocol runs its statements in order): one round trip, not one
    // per statement, which is most of a sandbox's start on PostgreSQL.
    else if (!command.startsWith("PRAGMA")) this.script(postgresSchema(sql).join(";\n"));
  }

  /**
   * A schema script. Outside a transaction it runs as one, under the migration lock: replicas that start at once
   * would otherwise race on the CREATE ... IF NOT EXISTS of the tables made beside the schema (the request log's,
   * the fault plan's), which PostgreSQL does not make safe (the loser fails with "already exists").
   */
  private script(statements: string): void {
    if (this.open) {
      this.query(statements, [], true);
      return;
    }
    try {
      this.query(`BEGIN;\nSELECT pg_advisory_xact_lock(${MIGRATION_LOCK});\n${statements};\nCOMMIT`);
    } catch (error) {
      // A failed statement leaves the transaction open, aborted; a lost connection took it along.
      try {
        this.bridge.query("ROLLBACK", [], true);
      } catch {
        // The error that failed the script is the one to report.
      }
      throw error;
    }
  }

  private control(statement: string, opens: boolean): void {
    // A failed COMMIT or ROLLBACK ends the transaction as well (PostgreSQL rolls it back, or the connection went).
    if (!opens) this.open = false;
    this.query(statement, [], !opens);
    if (opens) this.open = true;
  }

  close(): void {
    this.bridge.close();
  }
}
