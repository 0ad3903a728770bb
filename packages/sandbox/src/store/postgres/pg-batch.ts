// Statements sent together: a transaction's BEGIN, and the writes whose answer nobody waits for (an upsert, a meta
// value), wait to travel with the transaction's next statement or its COMMIT, as one message of the simple query
// protocol. A write request then costs its reads plus one round trip, not one per statement; PostgreSQL still runs
// them in order, and a failure of any fails the message (the transaction is then rolled back whole).
// The simple protocol takes no parameters: values are written into the text as literals, escaped by node-postgres.
import type { SqlValue } from "../sql.js";
import { PostgresError } from "./pg-errors.js";

/**
 * One value as a SQL literal: NULL, or a quoted string (a number too: an untyped literal takes the type of the
 * column or parameter it meets, as a bound value does). U+0000 has no place in PostgreSQL's text (the request path
 * refuses it first); it fails as a bound value would, rather than cutting the message short.
 *
 * @example
 * sqlLiteral("O'Brien"); // "'O''Brien'"
 * sqlLiteral(42); // "'42'"
 */
export function sqlLiteral(value: SqlValue): string {
  if (value === null) return "NULL";
  const text = String(value);
  if (text.includes("\u0000")) throw new PostgresError('invalid byte sequence for encoding "UTF8": 0x00', "22021");
  const quoted = text.replaceAll("'", "''");
  // As node-postgres's escapeLiteral writes it (which walks the text character by character): with a backslash, an
  // E'' string with each backslash doubled, read alike whatever standard_conforming_strings says.
  return text.includes("\\") ? ` E'${quoted.replaceAll("\\", "\\\\")}'` : `'${quoted}'`;
}

/**
 * A statement with numbered placeholders ($1, $2, …) and its values as one text: each placeholder outside a quoted
 * string becomes its value's literal.
 *
 * @example
 * inlineValues("UPDATE t SET a = $1 WHERE id = $2", ["x", 7]); // "UPDATE t SET a = 'x' WHERE id = '7'"
 */
export function inlineValues(text: string, values: ReadonlyArray<SqlValue>): string {
  if (values.length === 0) return text;
  let quoted = false;
  return text.replace(/'|\$(\d+)/g, (match, index: string | undefined) => {
    if (match === "'") {
      quoted = !quoted;
      return match;
    }
    if (quoted) return match;
    const at = Number(index) - 1;
    if (at < 0 || at >= values.length) throw new RangeError(`no value for ${match} in: ${text}`);
    return sqlLiteral(values[at]!);
  });
}

/** Where the rows of a read held back go once its message is answered (or why they never will). */
export interface HeldRead {
  deliver(rows: Array<Record<string, unknown>>): void;
  fail(error: unknown): void;
}

interface Held {
  readonly text: string;
  readonly read?: HeldRead;
}

/** Where a transaction's held statements stood at a moment (HeldStatements.mark). */
export interface HeldMark {
  readonly messages: number;
  readonly length: number;
}

/** A message to send: its text, and how to hand each held read its rows from the message's results. */
export interface HeldMessage {
  readonly text: string;
  /** Hands each held read its statement's rows (results: one per statement, in order). */
  deliver(results: ReadonlyArray<{ rows: Array<Record<string, unknown>> }>): void;
  /** The message failed: no held read of it will have rows. */
  fail(error: unknown): void;
}

/**
 * What a transaction holds back: its BEGIN until a first statement goes, the writes sent with the next one, and
 * reads asked ahead (their rows come when the message that carries them is answered).
 */
export class HeldStatements {
  private held: Held[];
  private begun = false;
  private writes = false;
  /** Messages sent so far. */
  private sent = 0;
  /** How many of the held statements open the transaction (none once it began). */
  private opening: number;

  /** @param begin the statements that open the transaction (held, sent with the first statement) */
  constructor(begin: readonly string[]) {
    this.held = begin.map((text) => ({ text }));
    this.opening = begin.length;
  }

  /** Holds a write (no `read`) or a read asked ahead for the next message. */
  hold(text: string, read?: HeldRead): void {
    this.held.push(read ? { text, read } : { text });
    if (!read) this.writes = true;
  }

  /** Where the held statements stand now (see dropSince). */
  mark(): HeldMark {
    return { messages: this.sent, length: this.held.length };
  }

  /**
   * Drops what was held since `mark` (a writer's part of a shared transaction: writer-line.ts), if no message went
   * since; answers whether it could. A read dropped fails (nobody waits for it any more).
   *
   * @example
   * const mark = held.mark(); held.hold("UPDATE t SET a = 1"); held.dropSince(mark); // true: nothing of it goes
   */
  dropSince(mark: HeldMark): boolean {
    if (this.sent !== mark.messages) return false;
    for (const entry of this.held.splice(mark.length)) entry.read?.fail(new Error("dropped: its writer failed"));
    this.writes = this.held.some((entry, i) => i >= this.opening && !entry.read);
    return true;
  }

  /** Whether a write is held (the next message carries it). */
  get writing(): boolean {
    return this.writes;
  }

  /** Whether `read` is still held (not sent yet). */
  holds(read: HeldRead): boolean {
    return this.held.some((entry) => entry.read === read);
  }

  /** Whether anything is held (the next statement carries it). */
  get waiting(): boolean {
    return this.held.length > 0;
  }

  /** Whether the transaction began on the server (its BEGIN went): it then ends with COMMIT or ROLLBACK. */
  get started(): boolean {
    return this.begun;
  }

  /** Whether COMMIT has anything to end: a statement went, or writes are held (not so when it only read the cache). */
  get worthCommitting(): boolean {
    return this.begun || this.writes;
  }

  /**
   * The message to send: what is held, then `last` (if any); afterwards nothing is held and the transaction has
   * begun.
   *
   * @example
   * const held = new HeldStatements(["BEGIN"]);
   * held.message("SELECT 1").text; // "BEGIN;\nSELECT 1"
   */
  message(last?: string): HeldMessage {
    const entries = last === undefined ? this.held : [...this.held, { text: last }];
    this.held = [];
    this.writes = false;
    this.begun = true;
    this.sent++;
    this.opening = 0;
    return {
      text: entries.map((entry) => entry.text).join(";\n"),
      deliver: (results) => {
        for (const [i, entry] of entries.entries()) entry.read?.deliver(results[i]?.rows ?? []);
      },
      fail: (error) => {
        for (const entry of entries) entry.read?.fail(error);
      },
    };
  }
}

/**
 * How long a connection given back with its read-only transaction still open waits for its next use before its
 * COMMIT is sent on its own (an open snapshot holds back vacuum and blocks DDL, so never for long).
 */
export const UNFINISHED_READ_MS = 20;

/**
 * Connections given back to the pool with a read-only transaction still open. Its COMMIT ends nothing worth
 * waiting for (a read-only transaction has nothing to make durable), so instead of a round trip of its own it
 * travels first in the connection's next message, or on its own after UNFINISHED_READ_MS if none comes.
 *
 * @example
 * unfinished.leave(client, () => client.query("COMMIT")); // then client.release()
 * const mustEnd = unfinished.take(client); // on the next connect: send "COMMIT" first when true
 */
export class UnfinishedReads<Client extends object> {
  private readonly timers = new Map<Client, NodeJS.Timeout>();

  constructor(private readonly idleMs = UNFINISHED_READ_MS) {}

  /** `client` goes back with its transaction open; `end` ends it if nobody takes the client within idleMs. */
  leave(client: Client, end: () => void): void {
    const timer = setTimeout(() => {
      if (this.timers.delete(client)) end();
    }, this.idleMs);
    timer.unref();
    this.timers.set(client, timer);
  }

  /** Whether `client` still has a transaction to end (it is then the taker's to end, first thing). */
  take(client: Client): boolean {
    const timer = this.timers.get(client);
    if (timer === undefined) return false;
    clearTimeout(timer);
    this.timers.delete(client);
    return true;
  }

  /** Forgets every connection (the pool is closing them, which ends their transactions). */
  clear(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
