// What a PostgreSQL failure is, as the store sees it: PostgreSQL's own (with its SQLSTATE) or the connection's
// (refused, reset, timed out: no SQLSTATE). The store's decisions (rerun, 503) read only this.
import pg from "pg";

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

/**
 * A driver's failure as a PostgresError: `code` is a SQLSTATE only when PostgreSQL said one; a failure of the
 * connection itself (ECONNREFUSED, a timeout, a server that went away) has none.
 *
 * @example
 * toPostgresError(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })).code; // undefined
 */
export function toPostgresError(error: unknown): PostgresError {
  if (error instanceof PostgresError) return error;
  const e = error as { message?: string; code?: string; constraint?: string };
  const sqlstate = error instanceof pg.DatabaseError ? e.code : undefined;
  return new PostgresError(String(e?.message ?? error), sqlstate, e?.constraint);
}

/** SQLSTATEs after which the whole transaction may simply be run again. */
const RETRYABLE = new Set(["40001", "40P01"]);

/** Whether a failed transaction lost a race with another one (serialization failure, deadlock) and may rerun. */
export function isRetryableConflict(error: unknown): boolean {
  return error instanceof PostgresError && error.code !== undefined && RETRYABLE.has(error.code);
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
export function isUnreachable(error: unknown): boolean {
  return isStoreUnavailable(error) && !isRetryableConflict(error);
}
