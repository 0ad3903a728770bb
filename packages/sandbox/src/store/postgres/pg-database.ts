// PostgreSQL behind the store's surface (sql.ts), with a pool of connections: several requests are in flight on one
// replica at once, each one transaction on a connection of its own, and the event loop never waits for an answer.
// Writers take turns across replicas (see transaction): two requests that read-then-write the same facts (one
// quotation, one reference, the 3-accounts limit) run one after the other, the second reading what the first
// wrote (committed, or earlier in the transaction they share: writer-line.ts). A transaction that still fails on a
// conflict (a deadlock, a SERIALIZABLE one) is run again (store.ts).
import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import type { Isolation, SqlDatabase, SqlStatement, SqlValue, WritersTurn } from "../sql.js";
import { type HeldMessage, type HeldRead, HeldStatements, inlineValues, UnfinishedReads } from "./pg-batch.js";
import { numberPlaceholders, postgresSchema } from "./pg-dialect.js";
import { isRetryableConflict, isUnreachable, PostgresError, toPostgresError } from "./pg-errors.js";
import { GROUP_SIZE, groupFailure, WriterLine } from "./writer-line.js";
import { type GroupMember, type GroupWire, NeedsTurn, OptimisticGroup } from "./optimistic-group.js";
import { isCheckableRead } from "./read-check.js";

export type { SqlDatabase, SqlStatement } from "../sql.js";

/** The key of the advisory lock that schema creation and upgrades hold (any constant; ours, by name). */
export const MIGRATION_LOCK = 0x45584b53; // "EXKS"

export { isRetryableConflict, isStoreUnavailable } from "./pg-errors.js";

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

function queryConfig(text: string, values: ReadonlyArray<SqlValue>): pg.QueryConfig {
  // Statements without values are schema and transaction control (several per text): the simple protocol.
  if (values.length === 0) return { text };
  return { name: statementName(text), text, values: values as unknown[] };
}

const BEGIN: Record<Isolation, string> = {
  serializable: "BEGIN ISOLATION LEVEL SERIALIZABLE",
  "read-committed": "BEGIN ISOLATION LEVEL READ COMMITTED",
  "read-only": "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
  default: "BEGIN",
};

/** The key of the advisory lock writers take turns with (any constant but MIGRATION_LOCK; ours, by name). */
export const WRITERS_LOCK_KEY = 0x45584b57; // "EXKW"

/** A writer's turn among every replica's writers: it waits for the lock, which COMMIT or ROLLBACK gives back. */
const TAKE_TURN = `SELECT pg_advisory_xact_lock(${WRITERS_LOCK_KEY})`;

/** The start of a writer's transaction: it begins, then waits for its turn among every replica's writers. */
const BEGIN_EXCLUSIVE = [BEGIN["read-committed"], TAKE_TURN];

/** Connections a replica opens at most: requests beyond them wait for one to be free. */
export const DEFAULT_POOL_SIZE = 10;

interface QueryResult {
  readonly rows: Array<Record<string, unknown>>;
  readonly changes: number;
}

/** A transaction's connection, and what it holds back to send with its next statement (pg-batch.ts). */
interface TransactionScope {
  client: pg.PoolClient | undefined;
  readonly held: HeldStatements;
  /** The writers' transaction it is a part of (writer-line.ts). */
  readonly group?: WriterGroup;
  /** The group of writers reading before their turn it is a member of, while its work runs (optimistic-group.ts). */
  optimistic?: { readonly group: OptimisticGroup; readonly member: GroupMember };
}

/** A connection of the pool, whether it still has a read-only transaction to end first, and how to give it back. */
interface CheckedOut {
  readonly client: pg.PoolClient;
  /** Its read-only transaction is still open (UnfinishedReads): the first message sent on it begins with COMMIT. */
  readonly unfinished: boolean;
  readonly release: (broken?: Error) => void;
}

/** The statements that open a transaction on a connection: COMMIT first when it still has a read open. */
function opening(begin: readonly string[], unfinished: boolean): string[] {
  return unfinished ? ["COMMIT", ...begin] : [...begin];
}

/** A transaction its replica's writers share (writer-line.ts). */
interface WriterGroup {
  readonly client: pg.PoolClient;
  readonly release: (broken?: Error) => void;
  readonly held: HeldStatements;
  /** The connection had a read-only transaction open, which the group's first message ends. */
  readonly unfinished: boolean;
  /** Writers that joined it so far. */
  members: number;
  /** The writers done with their work, waiting on its COMMIT. */
  readonly parked: Array<{ resolve: () => void; reject: (error: unknown) => void }>;
  /** A statement of it failed: the transaction is spoiled. */
  failed: boolean;
}

export class PostgresDatabase implements SqlDatabase {
  readonly engine = "postgres";
  private readonly pool: pg.Pool;
  /**
   * The transaction's connection, for the statements its work runs. Work a transaction started and left behind (a
   * timer) keeps this context after the connection went back to the pool: `client` is then undefined, and its
   * statements take a connection of their own instead of one another request may be using.
   */
  private readonly scope = new AsyncLocalStorage<TransactionScope>();
  private down = false;
  private availability: AvailabilityListener = () => {};
  /** Connections given back with a read-only transaction still open: their next message ends it first. */
  private readonly unfinished = new UnfinishedReads<pg.PoolClient>();
  /** This replica's writers, in turn (writer-line.ts). */
  private readonly line = new WriterLine<WriterGroup>();
  /** The group of writers reading before their turn that a writer starting now joins (optimistic-group.ts). */
  private forming: OptimisticGroup | undefined;

  /**
   * @param url a postgres:// connection string
   * @param timeoutMs how long a statement (or a connection attempt) may take; past it the call fails, so a
   *   database that is down or stuck fails the request fast instead of holding it
   */
  constructor(url: string, timeoutMs: number, poolSize = DEFAULT_POOL_SIZE) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: poolSize,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
      statement_timeout: timeoutMs,
      application_name: "exchange-kit-sandbox",
    });
    // An idle connection that breaks (a server restart) is dropped by the pool; the next query opens a new one.
    this.pool.on("error", () => {});
  }

  get inTransaction(): boolean {
    const scope = this.scope.getStore();
    return scope?.client !== undefined || scope?.optimistic !== undefined;
  }

  /** Calls `listener` when the database drops (its first failure) and when it recovers (its first answer after). */
  onAvailability(listener: AvailabilityListener): void {
    this.availability = listener;
  }

  /** A failure to reach the database found outside this pool (the job queue's): noted as its own would be. */
  unreachable(error: PostgresError): void {
    this.observe(error);
  }

  private observe(error: unknown): void {
    const change = availabilityChange(this.down, error);
    if (!change) return;
    this.down = change === "dropped";
    this.availability(change, error);
  }

  /**
   * One statement: on the transaction's connection inside one (with what the transaction holds back, in one
   * message), else on any free connection of the pool.
   */
  private async query(text: string, values: ReadonlyArray<SqlValue> = []): Promise<QueryResult> {
    const scope = this.scope.getStore();
    if (scope?.optimistic) return await this.beforeTurn(scope.optimistic, scope.held, text, values);
    const client = scope?.client;
    if (client && scope.held.waiting) return await this.send(client, scope.held.message(inlineValues(text, values)));
    if (client) return this.answer(await this.attempt(client, queryConfig(text, values)));
    return await this.alone(text, values);
  }

  /**
   * A statement of a writer reading before its turn: a plain read goes with its group's next round; anything else
   * (a read after a write of its own, which it would not see; a statement that is not a plain read) cannot wait for
   * the group's last message, so the writer runs again in the line (NeedsTurn).
   */
  private async beforeTurn(
    optimistic: NonNullable<TransactionScope["optimistic"]>,
    held: HeldStatements,
    text: string,
    values: ReadonlyArray<SqlValue>,
  ): Promise<QueryResult> {
    if (!isCheckableRead(text) || held.writing) {
      optimistic.member.mustLeave ??= new NeedsTurn(text);
      throw optimistic.member.mustLeave;
    }
    return { rows: await optimistic.group.read(optimistic.member, inlineValues(text, values)), changes: 0 };
  }

  /** A statement outside any transaction, on a connection of its own (ending the read it may still have open). */
  private async alone(text: string, values: ReadonlyArray<SqlValue>): Promise<QueryResult> {
    const { client, unfinished, release } = await this.checkout();
    let failed: Error | undefined;
    try {
      if (unfinished)
        return await this.send(client, new HeldStatements(opening([], true)).message(inlineValues(text, values)));
      return this.answer(await this.attempt(client, queryConfig(text, values)));
    } catch (error) {
      // As the pool's own query() does: a connection whose statement failed is not reused.
      failed = error as Error;
      throw error;
    } finally {
      release(failed);
    }
  }

  /** Sends a message of held statements; the last statement's answer is the answer. */
  private async send(client: pg.PoolClient, message: HeldMessage): Promise<QueryResult> {
    let result: pg.QueryResult | pg.QueryResult[];
    try {
      result = await this.attempt(client, { text: message.text });
    } catch (error) {
      message.fail(error);
      throw error;
    }
    const results = Array.isArray(result) ? result : [result];
    message.deliver(results);
    return this.answer(results);
  }

  /** Runs one query, noting what its outcome says of the database's reach. */
  private async attempt(client: pg.PoolClient, config: pg.QueryConfig): Promise<pg.QueryResult | pg.QueryResult[]> {
    try {
      const result = await client.query(config);
      if (this.down) this.observe(undefined);
      return result;
    } catch (caught) {
      const error = toPostgresError(caught);
      this.observe(error);
      const group = this.scope.getStore()?.group;
      if (group) group.failed = true;
      throw error;
    }
  }

  private answer(result: pg.QueryResult | pg.QueryResult[]): QueryResult {
    const last = Array.isArray(result) ? result[result.length - 1] : result;
    return { rows: last?.rows ?? [], changes: last?.rowCount ?? 0 };
  }

  /** Sends what the open transaction holds back, if anything (a read asked ahead is wanted now). */
  private async flush(scope: TransactionScope): Promise<void> {
    if (scope.client && scope.held.waiting) await this.send(scope.client, scope.held.message());
  }

  prepare(sql: string): SqlStatement {
    const text = numberPlaceholders(sql);
    return {
      get: async (...values) => (await this.query(text, values)).rows[0],
      all: async (...values) => (await this.query(text, values)).rows,
      run: async (...values) => ({ changes: (await this.query(text, values)).changes }),
      write: async (...values) => {
        const scope = this.scope.getStore();
        if (scope?.client || scope?.optimistic) scope.held.hold(inlineValues(text, values));
        else await this.query(text, values);
      },
      ahead: (...values) => this.ahead(text, values),
    };
  }

  /** A read held back to travel with the transaction's next message (see SqlStatement.ahead). */
  private ahead(text: string, values: ReadonlyArray<SqlValue>): () => Promise<unknown[]> {
    const scope = this.scope.getStore();
    if (scope?.optimistic) {
      const { member } = scope.optimistic;
      if (!isCheckableRead(text) || scope.held.writing) {
        member.mustLeave ??= new NeedsTurn(text);
        const leave = member.mustLeave;
        return () => Promise.reject(leave);
      }
      return scope.optimistic.group.ahead(scope.optimistic.member, inlineValues(text, values));
    }
    if (!scope?.client) return async () => (await this.query(text, values)).rows;
    let read!: HeldRead;
    const rows = new Promise<unknown[]>((resolve, reject) => {
      read = { deliver: resolve, fail: reject };
    });
    // Never asked for (the work did not need it) and its message failed: the work's own statement reports that.
    rows.catch(() => {});
    scope.held.hold(inlineValues(text, values), read);
    return async () => {
      if (scope.held.holds(read)) await this.flush(scope);
      return await rows;
    };
  }

  /**
   * Runs a script: SQLite's PRAGMAs skipped, the schema rewritten for PostgreSQL, as one message (the simple
   * protocol runs its statements in order: one round trip, not one per statement). Outside a transaction it runs
   * as one, under the migration lock: replicas that start at once would otherwise race on the CREATE ... IF NOT
   * EXISTS of the tables made beside the schema (the request log's, the fault plan's), which PostgreSQL does not
   * make safe (the loser fails with "already exists").
   */
  async exec(sql: string): Promise<void> {
    if (sql.trim().toUpperCase().startsWith("PRAGMA")) return;
    const statements = postgresSchema(sql).join(";\n");
    if (this.inTransaction) await this.query(statements);
    else
      await this.transaction("default", async () => {
        await this.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK});\n${statements}`);
      });
  }

  /**
   * A connection of the pool, and how to give it back: `release(broken)` closes it instead (it may hold half a
   * transaction, or the writers' lock: closing it gives both back), so it is never handed to the next request.
   */
  private async checkout(): Promise<CheckedOut> {
    const client = await this.connect();
    // The pool listens for errors only while a connection is idle: one that breaks between two statements would
    // otherwise be an unhandled error event. Its next statement fails instead.
    const ignore = () => {};
    client.on("error", ignore);
    return {
      client,
      unfinished: this.unfinished.take(client),
      release: (broken) => {
        client.off("error", ignore);
        client.release(broken);
      },
    };
  }

  private async connect(): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (caught) {
      const error = toPostgresError(caught);
      this.observe(error);
      throw error;
    }
  }

  /**
   * `turn`: a writer. It holds the writers' lock (a transaction advisory lock, taken in the same message as
   * BEGIN, given back by COMMIT or ROLLBACK) before its first read, so the writers of every replica run one after
   * the other: each reads at READ COMMITTED what every writer before it wrote, which is serializable by
   * construction, and no writer fails another's commit. (SERIALIZABLE writers running side by side failed each
   * other's commits nearly every time: their reads lock whole index pages.) "optimistic": it reads before the
   * lock, with the writers that start beside it, and its reads are checked under the lock before its writes
   * (optimistic-group.ts); "grouped": in the replica's line, maybe in a transaction shared with the writers beside
   * it (writer-line.ts); "alone": a transaction of its own. Readers never take the lock: they read one snapshot,
   * READ ONLY.
   */
  async transaction<R>(isolation: Isolation, work: () => Promise<R>, turn?: WritersTurn): Promise<R> {
    if (turn === "optimistic") return await this.optimistic(work);
    if (turn === "grouped") return await this.grouped(work);
    return await this.single(isolation, work, turn === "alone");
  }

  /** A transaction on a connection of its own; `exclusive`: a writer, taking the writers' lock with its BEGIN. */
  private async single<R>(isolation: Isolation, work: () => Promise<R>, exclusive: boolean): Promise<R> {
    const { client, unfinished, release } = await this.checkout();
    // BEGIN (and the writers' lock) is held back to go with the first statement: one round trip, not two; so is the
    // COMMIT of the read-only transaction the connection may still have open.
    const begin = exclusive ? BEGIN_EXCLUSIVE : [BEGIN[isolation]];
    const scope: TransactionScope = { client, held: new HeldStatements(opening(begin, unfinished)) };
    let result: R;
    try {
      result = await this.scope.run(scope, work);
    } catch (error) {
      if (!scope.held.started && unfinished) this.leaveOpen(client);
      release(scope.held.started ? await this.rollback(client, error) : undefined);
      throw error;
    } finally {
      scope.client = undefined;
    }
    if (!scope.held.worthCommitting || (isolation === "read-only" && !exclusive && !scope.held.waiting)) {
      // Nothing sent (the connection keeps what it had open), or a read-only transaction: its COMMIT waits for
      // the connection's next message (UnfinishedReads).
      if (scope.held.started || unfinished) this.leaveOpen(client);
      release();
      return result;
    }
    const failed = await this.commit(client, scope.held);
    release(failed?.broken);
    if (failed) throw failed.error;
    return result;
  }

  /**
   * A writer reading before its turn, in the group of the writers that start beside it (optimistic-group.ts): it
   * answers once the group committed.
   */
  private async optimistic<R>(work: () => Promise<R>): Promise<R> {
    if (!this.forming?.open) this.forming = this.optimisticGroup();
    const group = this.forming;
    const member = group.join(new HeldStatements([]));
    const scope: TransactionScope = { client: undefined, held: member.writes, optimistic: { group, member } };
    let outcome: { result: R } | { error: unknown };
    try {
      outcome = { result: await this.scope.run(scope, work) };
    } catch (error) {
      outcome = { error };
    }
    scope.optimistic = undefined;
    // Told to run in line, it leaves, whatever its work made of that (a caught NeedsTurn answers nothing that counts).
    if (member.mustLeave) {
      await group.end(member, "left");
      throw member.mustLeave;
    }
    // Refused: its answer rests on its reads, which the group's last message checks too.
    await group.end(member, "error" in outcome ? "refused" : "done");
    if ("error" in outcome) throw outcome.error;
    return outcome.result;
  }

  /** A new group of writers reading before their turn; it takes a connection with its first message. */
  private optimisticGroup(): OptimisticGroup {
    let checkedOut: Promise<CheckedOut> | undefined;
    let sent = false;
    const wire: GroupWire = {
      send: async (text) => {
        checkedOut ??= this.checkout();
        const { client, unfinished } = await checkedOut;
        // The read-only transaction the connection may still have open ends first, in the same message.
        const ending = unfinished && !sent;
        sent = true;
        const result = await this.attempt(client, { text: [...opening([], ending), text].join(";\n") });
        const results = Array.isArray(result) ? result : [result];
        return ending ? results.slice(1) : results;
      },
      rollback: async (error) => {
        const taken = await checkedOut?.catch(() => undefined);
        return taken ? await this.rollback(taken.client, error) : undefined;
      },
      release: (broken) => {
        checkedOut?.then(
          (taken) => taken.release(broken),
          () => {},
        );
      },
    };
    return new OptimisticGroup(wire, [BEGIN["read-committed"]], [TAKE_TURN]);
  }

  /**
   * A writer in its replica's line (writer-line.ts): it joins the open group, or starts one; once its work is done it
   * hands the group on to the next writer waiting, or commits it.
   */
  private async grouped<R>(work: () => Promise<R>): Promise<R> {
    const group = (await this.line.enter()) ?? (await this.startGroup());
    const member = group.members++;
    const mark = group.held.mark();
    if (member > 0) group.held.hold(`SAVEPOINT w${member}`);
    const scope: TransactionScope = { client: group.client, held: group.held, group };
    let result: R;
    try {
      result = await this.scope.run(scope, work);
    } catch (error) {
      scope.client = undefined;
      // Alone in its group, or a statement failed (whose, nobody can tell): the group ends here.
      if (member === 0 || group.failed || error instanceof PostgresError) return await this.abortGroup(group, error);
      // Refused by its work: what it did is undone, and the group goes on without it.
      if (!group.held.dropSince(mark)) group.held.hold(`ROLLBACK TO SAVEPOINT w${member}`);
      await this.handOn(group, false).catch(() => {});
      throw error;
    }
    scope.client = undefined;
    await this.handOn(group, true);
    return result;
  }

  /** A connection for a new group, its BEGIN and the writers' lock held for its first message. */
  private async startGroup(): Promise<WriterGroup> {
    let checkedOut: CheckedOut;
    try {
      checkedOut = await this.checkout();
    } catch (error) {
      this.line.pass(undefined);
      throw error;
    }
    const { client, release, unfinished } = checkedOut;
    const held = new HeldStatements(opening(BEGIN_EXCLUSIVE, unfinished));
    return { client, release, held, unfinished, members: 0, parked: [], failed: false };
  }

  /**
   * A writer done with its work: the group goes to the next writer waiting (this one, when `wait`, waits for the
   * group's COMMIT), or, with none waiting or the group full, it commits for all.
   */
  private async handOn(group: WriterGroup, wait: boolean): Promise<void> {
    if (this.line.waitingCount > 0 && group.members < GROUP_SIZE) {
      const committed = wait
        ? new Promise<void>((resolve, reject) => group.parked.push({ resolve, reject }))
        : undefined;
      this.line.pass(group);
      await committed;
      return;
    }
    // The next writer starts a group of its own at once: its first message waits for the lock in the database.
    this.line.pass(undefined);
    await this.commitGroup(group);
  }

  private async commitGroup(group: WriterGroup): Promise<void> {
    if (!group.held.worthCommitting) {
      if (group.held.started || group.unfinished) this.leaveOpen(group.client);
      group.release();
      for (const writer of group.parked) writer.resolve();
      return;
    }
    const failed = await this.commit(group.client, group.held);
    group.release(failed?.broken);
    if (!failed) {
      for (const writer of group.parked) writer.resolve();
      return;
    }
    const failure = group.members > 1 ? groupFailure(failed.error) : failed.error;
    for (const writer of group.parked) writer.reject(failure);
    throw failure;
  }

  /** Rolls the group back: its waiting writers run again alone (or hear that the database is down). */
  private async abortGroup(group: WriterGroup, error: unknown): Promise<never> {
    if (!group.held.started && group.unfinished) this.leaveOpen(group.client);
    group.release(group.held.started ? await this.rollback(group.client, error) : undefined);
    const failure = group.members > 1 ? groupFailure(error) : error;
    for (const writer of group.parked) writer.reject(failure);
    this.line.pass(undefined);
    throw failure;
  }

  /** Gives `client` back with a read-only transaction open: its next message, or a timer, ends it. */
  private leaveOpen(client: pg.PoolClient): void {
    this.unfinished.leave(client, () => {
      client.query("COMMIT").catch(() => {});
    });
  }

  /** Sends COMMIT (with what is held); answers, if it failed, why and whether the connection is broken. */
  private async commit(
    client: pg.PoolClient,
    held: HeldStatements,
  ): Promise<{ error: unknown; broken: Error | undefined } | undefined> {
    try {
      await this.send(client, held.message("COMMIT"));
      return undefined;
    } catch (error) {
      return { error, broken: await this.rollback(client, error) };
    }
  }

  /** Ends what is left of a failed transaction; answers the connection's own failure, if it has one. */
  private async rollback(client: pg.PoolClient, error: unknown): Promise<Error | undefined> {
    if (error instanceof PostgresError && error.code === undefined) return error;
    try {
      await client.query("ROLLBACK");
      return undefined;
    } catch (failed) {
      return toPostgresError(failed);
    }
  }

  async close(): Promise<void> {
    this.unfinished.clear();
    await this.pool.end();
  }
}
