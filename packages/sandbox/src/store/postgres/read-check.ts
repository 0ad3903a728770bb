// Reads made before the writers' turn, and their check at it (optimistic-group.ts). A read runs at READ COMMITTED
// without the writers' lock, each row answered with its digest (the md5 of the row's text) beside its columns; at
// the turn, under the lock, the same read runs again and its rows' digests are compared with those it answered, in
// a function that fails the transaction (READ_CHANGED) when they differ. A writer whose every read passes would
// have read the same rows had it run whole at that moment, and so written the same.
import { PostgresError } from "./pg-errors.js";

/** The SQLSTATE of a writer whose reads changed before its turn (ours: any five characters outside the standard's). */
export const READ_CHANGED = "EXK01";

/** Whether a transaction failed because a read of it changed before it took the writers' lock (run it again). */
export function isReadChanged(error: unknown): boolean {
  return error instanceof PostgresError && error.code === READ_CHANGED;
}

/** The function each check calls: fails the transaction when the rows read then are not the rows read now. */
export const READ_CHECK_FUNCTION =
  "CREATE OR REPLACE FUNCTION exchange_kit_read_unchanged(digests_now text[], digests_then text[]) RETURNS void " +
  "LANGUAGE plpgsql AS $$ BEGIN IF digests_now IS DISTINCT FROM digests_then THEN " +
  `RAISE EXCEPTION 'a read changed before the writers'' turn' USING ERRCODE = '${READ_CHANGED}'; END IF; END $$`;

/** Whether the function exists (databases created before it gain it at their next start). */
export const READ_CHECK_FOUND =
  "SELECT to_regprocedure('exchange_kit_read_unchanged(text[], text[])') IS NOT NULL AS found";

/** The column a digested read adds to each row (taken off before the rows go to the work). */
const DIGEST = "exchange_kit_digest";
/** The read's alias in the digesting query: no column of ours has the name, so the whole row is meant. */
const ROW = "exchange_kit_read";

// A locking read, a function in FROM (the job queue's add_job) or one that changes state is a write.
const CHANGES_STATE =
  /\bFOR\s+(?:NO\s+KEY\s+)?(?:UPDATE|SHARE)\b|\bFOR\s+KEY\s+SHARE\b|\bFROM\s+[\w."]+\s*\(|\b(?:nextval|setval|pg_notify|\w*advisory\w*)\s*\(/i;

/**
 * Whether a statement only reads, and may run before the writers' lock: a SELECT that locks no row, calls no
 * function in FROM and changes nothing. Anything else (a write, or a read in doubt) takes the lock first.
 *
 * @example
 * isCheckableRead("SELECT json FROM customer WHERE id = $1"); // true
 * isCheckableRead("SELECT 1 AS added FROM jobs.add_job($1)"); // false
 */
export function isCheckableRead(text: string): boolean {
  return /^\s*SELECT\b/i.test(text) && !CHANGES_STATE.test(text);
}

/**
 * A read that also answers each row's digest (the md5 of the row's text), in a column of its own.
 *
 * @example
 * digestRead("SELECT json FROM customer WHERE id = '7'");
 * // "SELECT exchange_kit_read.*, md5(exchange_kit_read::text) AS exchange_kit_digest FROM (SELECT json ...) exchange_kit_read"
 */
export function digestRead(text: string): string {
  return `SELECT ${ROW}.*, md5(${ROW}::text) AS ${DIGEST} FROM (${text}) ${ROW}`;
}

/**
 * The statement that checks a read again: the digests of its rows now, sorted, against those it answered.
 *
 * @example
 * readCheck("SELECT 1", []); // "SELECT exchange_kit_read_unchanged(ARRAY(... ORDER BY ...), '{}'::text[])"
 */
export function readCheck(text: string, digests: readonly string[]): string {
  const now = `ARRAY(SELECT md5(${ROW}::text) FROM (${text}) ${ROW} ORDER BY md5(${ROW}::text) COLLATE "C")`;
  return `SELECT exchange_kit_read_unchanged(${now}, '{${digests.join(",")}}'::text[])`;
}

/** The reads a writer made before its turn, each with its rows' digests, to check at its turn. */
export class ReadSet {
  private readonly reads: Array<{ text: string; digests: string[] }> = [];

  /**
   * Notes the rows a digested read answered (`text`: the read as it was sent, its values written in) and gives
   * them back without their digests.
   */
  record(text: string, rows: ReadonlyArray<Record<string, unknown>>): Array<Record<string, unknown>> {
    const digests: string[] = [];
    const plain = rows.map(({ [DIGEST]: digest, ...row }) => {
      digests.push(digest as string);
      return row;
    });
    // Sorted as the check sorts them (hex digits: code unit order is "C" order): a read with no ORDER BY may
    // answer the same rows in another order.
    this.reads.push({ text, digests: digests.sort() });
    return plain;
  }

  /** The statements that check every read noted, to run once the lock is held. */
  checks(): string[] {
    return this.reads.map((read) => readCheck(read.text, read.digests));
  }
}
