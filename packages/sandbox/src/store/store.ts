// The store: one database (SQLite in memory or a file, or PostgreSQL), a table per kind of record, every read and
// write awaited (on PostgreSQL several requests are in flight at once; the event loop never waits on the database).
// Rows are read fresh from the database on every lookup, so a request that fails and rolls back leaves no
// changed object behind. `transaction` runs a request's writes as one unit; work that must only happen once
// they are committed (webhook deliveries, timers) is queued with `afterCommit`.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { parseJson } from "@exchange-kit/signing";
import type { Logger } from "../logger.js";
import { openDatabase, type Durability } from "./database.js";
import { displayUrl } from "./postgres/pg-open.js";
import { PostgresError } from "./postgres/pg-errors.js";
import { conflictRetryDelay, PostgresDatabase } from "./postgres/pg-database.js";
import { isGroupAborted } from "./postgres/writer-line.js";
import { needsTurn } from "./postgres/optimistic-group.js";
import type { Isolation, SqlDatabase, SqlStatement, WritersTurn } from "./sql.js";
import type {
  EventRow,
  OrganizationRow,
  OrgSettingsRow,
  PayinQuotationRow,
  PayoutQuotationRow,
  RemitterRow,
  SenderKycRow,
  WalletRow,
} from "../records/rows.js";
import { RECORD_KINDS, RECORD_TYPES, type RecordType, type RowOf } from "../record-kinds.js";
import { ReadCache } from "./read-cache.js";
import { type CacheMark, CacheChecks, type Checked, StaleCacheError } from "./cache-check.js";
import { DASHBOARD_GRANT_TABLE_SQL, DashboardGrants } from "./dashboard-grants.js";
import type { TableSpec } from "../records/table-spec.js";
import { TABLES } from "./schema.js";
import { type StorageBackoff, StorageRecovery } from "./storage-recovery.js";

interface Row {
  id: string;
  org: string;
}

export type Param = string | number | null;

export class Table<T extends Row> {
  readonly kind: string;
  private readonly columns: Array<[string, (row: T) => Param]>;
  private readonly statements = new Map<string, SqlStatement>();
  private readonly upsert: SqlStatement;
  private readonly remove: SqlStatement;
  private readonly byId: SqlStatement;
  private readonly counted: boolean;

  constructor(
    private readonly db: SqlDatabase,
    spec: TableSpec<T>,
    /** Told of each row written, with the row's organization (the dashboard's live view listens). */
    private readonly changed: (kind: string, org: string) => Promise<void> = async () => {},
  ) {
    this.kind = spec.kind;
    this.counted = spec.counted ?? false;
    this.columns = Object.entries(spec.columns);
    const names = ["id", "org", "created_at", "planned", ...this.columns.map(([name]) => name), "json"];
    this.upsert = db.prepare(
      `INSERT INTO ${this.kind} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")}) ` +
        `ON CONFLICT (id) DO UPDATE SET ${names
          .slice(1)
          .map((n) => `${n} = excluded.${n}`)
          .join(", ")}`,
    );
    this.remove = db.prepare(`DELETE FROM ${this.kind} WHERE id = ?`);
    this.byId = db.prepare(`SELECT json FROM ${this.kind} WHERE id = ?`);
  }

  private statement(sql: string): SqlStatement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private read(found: unknown): T | undefined {
    return found === undefined ? undefined : (parseJson((found as { json: string }).json) as T);
  }

  async get(id: string): Promise<T | undefined> {
    return this.read(await this.byId.get(id));
  }

  /** The row of this organization, or undefined; `other` tells whether it exists in another one. */
  async owned(org: string, id: string): Promise<{ row: T | undefined; other: boolean }> {
    const row = await this.get(id);
    if (!row) return { row: undefined, other: false };
    return row.org === org ? { row, other: false } : { row: undefined, other: true };
  }

  /** The first row (in insertion order) matching an SQL condition over the table's columns. */
  async first(where: string, ...params: Param[]): Promise<T | undefined> {
    return this.read(
      await this.statement(`SELECT json FROM ${this.kind} WHERE ${where} ORDER BY seq LIMIT 1`).get(...params),
    );
  }

  /** Every row matching the condition, in `orderBy` order (insertion order by default). */
  async where(where: string, params: Param[], orderBy = "seq", limit = -1, offset = 0): Promise<T[]> {
    const sql = `SELECT json FROM ${this.kind} WHERE ${where} ORDER BY ${orderBy}`;
    // "No limit" is said differently by each engine (-1, NULL); a largest number is read alike by both.
    const rows =
      limit < 0 && offset === 0
        ? await this.statement(sql).all(...params)
        : await this.statement(`${sql} LIMIT ? OFFSET ?`).all(
            ...params,
            limit < 0 ? Number.MAX_SAFE_INTEGER : limit,
            offset,
          );
    return rows.map((row) => this.read(row)!);
  }

  /**
   * One page in `orderBy` order. The offset is walked in the index alone (the subquery reads no row), and
   * only the page's rows are read from the table.
   */
  async page(where: string, params: Param[], orderBy: string, limit: number, offset: number): Promise<T[]> {
    const sql =
      `SELECT json FROM ${this.kind} WHERE seq IN ` +
      `(SELECT seq FROM ${this.kind} WHERE ${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?) ORDER BY ${orderBy}`;
    return (await this.statement(sql).all(...params, limit, offset)).map((row) => this.read(row)!);
  }

  /** The organization's number of rows: one lookup for a counted table (see TableSpec.counted). */
  async countOf(org: string): Promise<number> {
    if (!this.counted) return await this.count("org = ?", org);
    const found = (await this.statement("SELECT n FROM row_count WHERE kind = ? AND org = ?").get(this.kind, org)) as
      | { n: number }
      | undefined;
    return Number(found?.n ?? 0);
  }

  async count(where: string, ...params: Param[]): Promise<number> {
    const found = await this.statement(`SELECT COUNT(*) AS n FROM ${this.kind} WHERE ${where}`).get(...params);
    return Number((found as { n: number }).n);
  }

  /** IDs of rows that still have planned steps. */
  async plannedIds(): Promise<string[]> {
    const rows = await this.statement(`SELECT id FROM ${this.kind} WHERE planned = 1 ORDER BY seq`).all();
    return (rows as Array<{ id: string }>).map((r) => r.id);
  }

  async put(row: T): Promise<T> {
    const record = row as T & { created_at?: string; plan?: unknown[] };
    await this.upsert.write(
      row.id,
      row.org,
      record.created_at ?? "",
      record.plan && record.plan.length > 0 ? 1 : 0,
      ...this.columns.map(([, value]) => value(row)),
      JSON.stringify(row),
    );
    await this.changed(this.kind, row.org);
    return row;
  }

  async delete(id: string): Promise<void> {
    await this.remove.write(id);
  }

  /** Deletes every row matching the condition in one statement; answers how many. */
  async deleteWhere(where: string, ...params: Param[]): Promise<number> {
    return (await this.statement(`DELETE FROM ${this.kind} WHERE ${where}`).run(...params)).changes;
  }
}

export interface StoreOptions {
  /** A SQLite file; in memory when absent. */
  path?: string;
  durability?: Durability;
  /** Where scheduled work that fails for want of disk says so (see StorageRecovery); silent when absent. */
  logger?: Logger;
  /** How scheduled work that fails for want of disk is retried. */
  storageBackoff?: StorageBackoff;
  /**
   * The statements that create the features' own tables (the request log's, the fault plan's), run at every open
   * beside the records' schema, so a database of an earlier version gains them at its first start. The composition
   * root hands them in (compose/store-wiring.ts); the features then build their tables on the store
   * (`store.table(spec)`, `store.statement(sql)`).
   */
  featureSchema?: readonly string[];
}

/** A table of each kind of record in the registry, as the store's member named by its collection (store.banks). */
export type RecordTables = {
  readonly [T in RecordType as (typeof RECORD_KINDS)[T]["collection"]]: Table<RowOf<T>>;
};

/** How a transaction runs. */
export interface TransactionOptions {
  /**
   * "serializable" (the default: on PostgreSQL a writer taking its turn, or with `onlyReads` a read-only snapshot)
   * or, on PostgreSQL, "read-committed" for writes whose row locks already order them (the request log's
   * counter): they then run beside the writers, waiting for each other's rows only.
   */
  isolation?: "serializable" | "read-committed";
  /** The work only reads (a GET): on PostgreSQL one read-only snapshot; clock offsets and settings from the cache. */
  onlyReads?: boolean;
  /**
   * Meta keys the work is about to read (an organization's clock offset and settings). On PostgreSQL a writer reads
   * them all in its first message, under the writers' lock, and keeps them for the rest of the transaction: no other
   * writer can change them before it commits. Without it, a writer reads each one when asked.
   */
  prefetch?: readonly string[];
}

/** The meta key of the cache's generation: a new random value at every commit of cached state (PostgreSQL). */
const GENERATION_KEY = "cache_generation";

/** The kind under which cached meta values are announced and forgotten. */
export const META_KIND = "sandbox_meta";

/** The meta values read at nearly every request and rarely written: clock offsets and settings. */
export function isCachedMeta(key: string): boolean {
  return key.startsWith("clock_offset_ms") || key.startsWith("settings:");
}

/** The kinds of state replicas cache (read-cache.ts): a change of one is told to the others at once. */
export function isCachedKind(kind: string): boolean {
  return kind === "organization" || kind === "fault_rule" || kind === META_KIND;
}

/**
 * Whether a log line of the job queue (graphile-worker and its pool) only says that the database cannot be
 * reached: refused, reset, or ended by a server that stops or restarts. The workers' failed start is not one.
 *
 * @example
 * isOutageLine("job queue: Error with notify listener (trying again in 132ms): connect ECONNREFUSED 127.0.0.1:5432"); // true
 */
export function isOutageLine(text: string): boolean {
  // The workers' failed start is news of its own (they are started again once the database is back).
  if (text.includes("did not start")) return false;
  return /ECONNREFUSED|ECONNRESET|Connection terminated|terminating connection|the database system is (starting up|shutting down|in recovery mode)|timeout exceeded when trying to connect|not queryable/i.test(
    text,
  );
}

const SILENT: Logger = { enabled: false, info: () => {}, warn: () => {}, error: () => {} };

/**
 * One warning line when the replica's database stops answering and one info line when it answers again, the
 * database named without its password (the requests in between are answered 503, each without a line of its own).
 */
function reportAvailability(db: PostgresDatabase, url: string, logger: Logger): void {
  const where = displayUrl(url);
  db.onAvailability((change, error) => {
    if (change === "recovered") logger.info(`${where}: the database answers again`);
    else
      logger.warn(
        `${where}: the database does not answer (${(error as Error).message}): requests are answered 503 until it does`,
      );
  });
}

/** What a transaction of the store holds while it runs (one per request in flight). */
interface OpenTransaction {
  /** Run once it commits. */
  committed: Array<() => void>;
  /** It may take clock offsets and settings from the cache (it only reads them). */
  cachedReads: boolean;
  /** It changed the cache's generation already (see freshenCache). */
  generationMoved: boolean;
  /** The cache keys it wrote: never remembered while it is open. */
  written: Set<string>;
  /** It committed or rolled back. */
  ended: boolean;
  /** Meta values it read ahead under the writers' lock (TransactionOptions.prefetch), kept up to date by its writes. */
  meta?: { keys: ReadonlySet<string>; values(): Promise<Map<string, string | undefined>> };
}

// The record tables are members too (store.customers, store.banks, ...): declared by RecordTables from the
// registry and created in the constructor from the same registry, so each one the type names exists.
export interface Store extends RecordTables {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the constructor assigns every member RecordTables declares (one per registry entry), which is what this rule cannot see
export class Store {
  readonly wallets: Table<WalletRow>;
  readonly payoutQuotations: Table<PayoutQuotationRow>;
  readonly payinQuotations: Table<PayinQuotationRow>;
  readonly remitters: Table<RemitterRow>;
  readonly senderKyc: Table<SenderKycRow>;
  readonly orgSettings: Table<OrgSettingsRow>;
  readonly events: Table<EventRow>;
  /** The organizations that may call the sandbox (organizations/directory.ts reads and writes them). */
  readonly organizations: Table<OrganizationRow>;
  /** The dashboard's links and sessions (dashboard/access.ts makes and checks them). */
  readonly dashboardGrants: DashboardGrants;
  /** Retries scheduled work whose transaction failed because the disk is full or failing. */
  readonly recovery: StorageRecovery;
  /** Organizations, armed fault rules, clock offsets and settings as this replica last read them (read-cache.ts). */
  readonly cache: ReadCache;
  /** The requests running against the cache, each checked once (cache-check.ts). */
  private readonly checks: CacheChecks;
  private readonly db: SqlDatabase;
  private readonly getMetaStatement: SqlStatement;
  private readonly setMetaStatement: SqlStatement;
  /** The transaction the calling code runs in, if any. */
  private readonly open = new AsyncLocalStorage<OpenTransaction>();
  private readonly changeListeners = new Set<(kind: string, org: string) => void>();
  private closed = false;

  /**
   * Opens the database (in memory, the `path` file, or PostgreSQL) with every table the store uses.
   *
   * @example
   * const store = await Store.open({ path: "./sandbox.db" });
   */
  static async open(options: StoreOptions = {}): Promise<Store> {
    const db = await openDatabase(options.path, options.durability);
    try {
      // Created beside the schema of the records: a database of an earlier version gains them at its first start.
      for (const sql of [...(options.featureSchema ?? []), DASHBOARD_GRANT_TABLE_SQL]) await db.exec(sql);
    } catch (error) {
      await db.close();
      throw error;
    }
    return new Store(db, options);
  }

  private constructor(db: SqlDatabase, options: StoreOptions) {
    this.db = db;
    if (this.db instanceof PostgresDatabase) reportAvailability(this.db, options.path ?? "", options.logger ?? SILENT);
    this.recovery = new StorageRecovery(() => this.checkpoint(), options.logger ?? SILENT, options.storageBackoff);
    this.cache = new ReadCache(this.engine === "sqlite");
    this.checks = new CacheChecks(this.cache);
    const table = <T extends Row>(spec: TableSpec<never>) => this.table(spec as unknown as TableSpec<T>);
    for (const type of RECORD_TYPES) {
      const kind = RECORD_KINDS[type];
      Object.defineProperty(this, kind.collection, { value: table(kind.table), enumerable: true });
    }
    this.wallets = table(TABLES.wallet);
    this.payoutQuotations = table(TABLES.payoutQuotation);
    this.payinQuotations = table(TABLES.payinQuotation);
    this.remitters = table(TABLES.remitter);
    this.senderKyc = table(TABLES.senderKyc);
    this.orgSettings = table(TABLES.orgSettings);
    this.events = table(TABLES.event);
    this.organizations = table(TABLES.organization);
    this.dashboardGrants = new DashboardGrants(this.db);
    this.getMetaStatement = this.db.prepare("SELECT value FROM sandbox_meta WHERE key = ?");
    this.setMetaStatement = this.db.prepare(
      "INSERT INTO sandbox_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    );
  }

  /**
   * A table on the store's database (created by the schema, or a feature's schema given to open), whose writes
   * are announced once their transaction commits (a rolled-back write was never there): how a feature keeps its
   * rows.
   *
   * @example
   * const rules = store.table(FAULT_RULE_TABLE); // faults/fault-plan.ts
   */
  table<T extends Row>(spec: TableSpec<T>): Table<T> {
    return new Table<T>(this.db, spec, (kind, org) => this.wrote(kind, org));
  }

  /**
   * The table of a kind of record, by its event type.
   *
   * @example
   * await store.recordTable("BANK").get(id); // the same table as store.banks
   */
  recordTable<T extends RecordType>(type: T): Table<RowOf<T>> {
    return (this as RecordTables)[RECORD_KINDS[type].collection] as unknown as Table<RowOf<T>>;
  }

  /**
   * Runs `work` as one transaction: committed when it resolves, rolled back when it rejects (and the error
   * rethrown). Nested calls join the outer transaction. Callbacks queued with afterCommit run after the commit.
   * See TransactionOptions for `isolation` and `onlyReads`.
   *
   * @example
   * await store.transaction(() => store.customers.put(row));
   */
  async transaction<R>(work: () => Promise<R>, options: TransactionOptions = {}): Promise<R> {
    if (this.current()) return await work();
    if (this.engine === "sqlite") return this.attempts(work, "serializable", options.onlyReads ?? false);
    // The first transaction of a request run against the cache checks it (cache-check.ts).
    const mark = this.checks.pending();
    const checked = mark ? this.checkedBy(mark, work) : work;
    // On PostgreSQL: the request log's batches at READ COMMITTED (their counter row orders them), GETs on one
    // snapshot READ ONLY, and every other transaction as a writer, taking turns (pg-database.ts).
    if (options.isolation === "read-committed") return this.attempts(checked, "read-committed", false);
    if (options.onlyReads) return this.attempts(checked, "read-only", true);
    const keys = options.prefetch ?? [];
    const prefetched = async () => {
      if (keys.length > 0) this.prefetchMeta(keys);
      return await checked();
    };
    return await this.attempts(prefetched, "read-committed", false, "optimistic");
  }

  private async attempts<R>(
    work: () => Promise<R>,
    isolation: Isolation,
    onlyReads: boolean,
    writer?: WritersTurn,
  ): Promise<R> {
    let turn = writer;
    // On PostgreSQL a transaction that lost a race with another transaction is run again from the start: its
    // writes were rolled back and its after-commit work dropped, so the rerun decides on what is committed now.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.transactionOnce(work, isolation, onlyReads, turn);
      } catch (error) {
        // Its group was rolled back for a failure that may not be its own: it runs again at once, alone.
        if (isGroupAborted(error)) {
          turn = "alone";
          continue;
        }
        // It could not run before its turn (or what it read changed by then): it runs again in the line.
        if (needsTurn(error)) {
          turn = "grouped";
          continue;
        }
        const delay = conflictRetryDelay(error, attempt, Math.random());
        if (delay === undefined) throw error;
        if (delay > 0) await sleep(delay);
      }
    }
  }

  private async transactionOnce<R>(
    work: () => Promise<R>,
    isolation: Isolation,
    cachedReads: boolean,
    turn: WritersTurn | undefined,
  ): Promise<R> {
    const open: OpenTransaction = {
      committed: [],
      cachedReads,
      generationMoved: false,
      written: new Set(),
      ended: false,
    };
    let result: R;
    try {
      result = await this.db.transaction(isolation, () => this.open.run(open, work), turn);
    } finally {
      open.ended = true;
      this.cache.ended(open.written);
    }
    for (const callback of open.committed) callback();
    return result;
  }

  /**
   * Asks ahead for `keys` of the meta table, for the open transaction's own copy: one statement, which travels with
   * the transaction's first message (its BEGIN and the writers' lock).
   */
  private prefetchMeta(keys: readonly string[]): void {
    const open = this.current()!;
    const sql = `SELECT key, value FROM sandbox_meta WHERE key IN (${keys.map(() => "?").join(", ")})`;
    const rows = this.db.prepare(sql).ahead(...keys);
    let values: Promise<Map<string, string | undefined>> | undefined;
    open.meta = {
      keys: new Set(keys),
      values: () => {
        values ??= rows().then((found) => {
          const map = new Map<string, string | undefined>(keys.map((key) => [key, undefined]));
          for (const { key, value } of found as Array<{ key: string; value: string }>) map.set(key, value);
          return map;
        });
        return values;
      },
    };
  }

  /**
   * The transaction the calling code runs in, if it is still open. Work a transaction started and left behind (a
   * timer, a flush) keeps its async context after it ended: it is then outside any transaction.
   */
  private current(): OpenTransaction | undefined {
    const open = this.open.getStore();
    return open?.ended ? undefined : open;
  }

  /** Whether the calling code runs inside one of the store's transactions. */
  get inTransaction(): boolean {
    return this.current() !== undefined;
  }

  /** Copies the WAL into the file and truncates it to zero bytes, giving its disk space back. */
  async checkpoint(): Promise<void> {
    await this.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  }

  /** Runs `callback` once the current transaction commits (dropped if it rolls back); at once outside one. */
  afterCommit(callback: () => void): void {
    const open = this.current();
    if (open) open.committed.push(callback);
    else callback();
  }

  /** Tells the change listeners that another replica committed a change of this kind (store.onChange). */
  announce(kind: string, org: string): void {
    this.cache.changed(kind, org);
    for (const listener of this.changeListeners) listener(kind, org);
  }

  /**
   * On PostgreSQL, at the start of a request: reads the cache's generation (one round trip), and forgets what the
   * cache holds when another replica's commit of cached state moved it since the last request (read-cache.ts).
   */
  async freshenCache(): Promise<void> {
    // Not used (the change feed does not listen): nothing to check, no round trip.
    if (this.engine !== "postgres" || !this.cache.isLive) return;
    this.cache.validate(await this.readGeneration());
  }

  private async readGeneration(): Promise<string | undefined> {
    return ((await this.getMetaStatement.get(GENERATION_KEY)) as { value: string } | undefined)?.value;
  }

  /**
   * Runs a request against the cache as it is, instead of after freshenCache: the cache's generation is read in the
   * first message of the request's first transaction and compared before it commits (or read once at the end when
   * the request opened none). Answers stale when it had moved, with nothing of the request committed: the caller
   * runs it again after freshenCache (cache-check.ts).
   *
   * @example
   * const checked = await store.optimistically(() => handle(request));
   * const result = checked.stale ? (await store.freshenCache(), await handle(request)) : checked.result;
   */
  async optimistically<R>(request: () => Promise<R>): Promise<Checked<R>> {
    if (this.engine !== "postgres" || !this.cache.isLive) return { stale: false, result: await request() };
    return await this.checks.run(request, () => this.readGeneration());
  }

  /** `work` with the request's check: the generation read ahead (with its first message), compared before COMMIT. */
  private checkedBy<R>(mark: CacheMark, work: () => Promise<R>): () => Promise<R> {
    return async () => {
      const generation = this.getMetaStatement.ahead(GENERATION_KEY);
      const result = await work();
      const found = ((await generation()) as Array<{ value: string }>)[0]?.value;
      if (!this.checks.settle(mark, found)) throw new StaleCacheError();
      return result;
    };
  }

  /** A write of cached state moves the generation, once per transaction, committed (or not) with the write. */
  private async moveGeneration(open: OpenTransaction | undefined): Promise<void> {
    if (this.engine !== "postgres" || open?.generationMoved) return;
    if (open) open.generationMoved = true;
    await this.setMetaStatement.write(GENERATION_KEY, randomUUID());
  }

  /** Another part of the replica (the job queue) found the database unreachable: said once, as the store's own. */
  databaseFailed(detail: string): void {
    if (this.db instanceof PostgresDatabase) this.db.unreachable(new PostgresError(detail, undefined));
  }

  /**
   * Notes a write of this kind for this organization (or meta key): what the cache holds of it is forgotten, and
   * the change listeners (other replicas, live views) are told once the transaction commits. Table.put calls it;
   * a delete of cached state calls it itself.
   */
  async wrote(kind: string, org: string): Promise<void> {
    const open = this.current();
    if (isCachedKind(kind)) {
      if (open) this.cache.writing(kind, org, open.written);
      else this.cache.changed(kind, org);
      await this.moveGeneration(open);
    }
    this.afterCommit(() => {
      for (const listener of this.changeListeners) listener(kind, org);
    });
  }

  /**
   * A cached value of this kind and key (read-cache.ts), or what `load` reads now; never remembered from a
   * transaction that wrote it.
   *
   * @example
   * await store.cached("organization", id, () => store.organizations.get(id));
   */
  async cached<T>(kind: string, key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    return await this.cache.read(kind, key, load, this.current()?.written);
  }

  /** Calls `listener` with the kind and organization of every row written from now on (after its commit). */
  onChange(listener: (kind: string, org: string) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  async getMeta(key: string): Promise<string | undefined> {
    const read = async () => ((await this.getMetaStatement.get(key)) as { value: string } | undefined)?.value;
    const open = this.current();
    if (open?.meta?.keys.has(key)) return (await open.meta.values()).get(key);
    // A transaction that may write reads them fresh: it may change what it read (a clock advanced by 60 s).
    return isCachedMeta(key) && (!open || open.cachedReads)
      ? await this.cache.read(META_KIND, key, read, open?.written)
      : await read();
  }

  async setMeta(key: string, value: string): Promise<void> {
    const meta = this.current()?.meta;
    // Its copy first (a read asked ahead and not yet answered would otherwise land over the write).
    if (meta?.keys.has(key)) (await meta.values()).set(key, value);
    await this.setMetaStatement.write(key, value);
    if (isCachedMeta(key)) await this.wrote(META_KIND, key);
  }

  /** Which engine holds the tables: SQLite (a file or memory) or a PostgreSQL database replicas may share. */
  get engine(): "sqlite" | "postgres" {
    return this.db.engine;
  }

  /** A statement on the store's database: run inside a transaction, it is part of it (the job queue's add_job). */
  statement(sql: string): SqlStatement {
    return this.db.prepare(sql);
  }

  /** The next integer wallet ID (wallet IDs are integers, unlike every other ID). */
  async nextWalletId(): Promise<number> {
    const next = Number((await this.getMeta("wallet_seq")) ?? "1000") + 1;
    await this.setMeta("wallet_seq", String(next));
    return next;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.db.close();
  }
}
