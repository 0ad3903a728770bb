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
