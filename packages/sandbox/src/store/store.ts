// The store: one SQLite database (in memory or a file, the same code either way), a table per kind of record.
// Rows are read fresh from the database on every lookup, so a request that fails and rolls back leaves no
// changed object behind. `transaction` runs a request's writes as one unit; work that must only happen once
// they are committed (webhook deliveries, timers) is queued with `afterCommit`.
import { parseJson } from "@exchange-kit/signing";
import type { FaultRuleRow, FiredFaultRow } from "../faults/fault-records.js";
import { FAULT_FIRED_TABLE, FAULT_RULE_TABLE, FAULT_TABLES_SQL } from "../faults/fault-tables.js";
import type { Logger } from "../logger.js";
import { openDatabase, type Durability } from "./database.js";
import { conflictRetryDelay, PostgresDatabase, type SqlDatabase, type SqlStatement } from "./postgres/pg-database.js";
import type {
  EventRow,
  OrganizationRow,
  OrgSettingsRow,
  PayinQuotationRow,
  PayoutQuotationRow,
  RemitterRow,
  SenderKycRow,
  WalletRow,
} from "./records.js";
import { RECORD_KINDS, RECORD_TYPES, type RecordType, type RowOf } from "../record-kinds.js";
import { RequestLogTable } from "../request-log/log-table.js";
import { DashboardGrants } from "./dashboard-grants.js";
import { TABLES, type TableSpec } from "./schema.js";
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
    private readonly changed: (kind: string, org: string) => void = () => {},
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

  get(id: string): T | undefined {
    return this.read(this.byId.get(id));
  }

  /** The row of this organization, or undefined; `other` tells whether it exists in another one. */
  owned(org: string, id: string): { row: T | undefined; other: boolean } {
    const row = this.get(id);
    if (!row) return { row: undefined, other: false };
    return row.org === org ? { row, other: false } : { row: undefined, other: true };
  }

  /** The first row (in insertion order) matching an SQL condition over the table's columns. */
  first(where: string, ...params: Param[]): T | undefined {
    return this.read(
      this.statement(`SELECT json FROM ${this.kind} WHERE ${where} ORDER BY seq LIMIT 1`).get(...params),
    );
  }

  /** Every row matching the condition, in `orderBy` order (insertion order by default). */
  where(where: string, params: Param[], orderBy = "seq", limit = -1, offset = 0): T[] {
    const sql = `SELECT json FROM ${this.kind} WHERE ${where} ORDER BY ${orderBy}`;
    // "No limit" is said differently by each engine (-1, NULL); a largest number is read alike by both.
    const rows =
      limit < 0 && offset === 0
        ? this.statement(sql).all(...params)
        : this.statement(`${sql} LIMIT ? OFFSET ?`).all(...params, limit < 0 ? Number.MAX_SAFE_INTEGER : limit, offset);
    return rows.map((row) => this.read(row)!);
  }

  /**
   * One page in `orderBy` order. The offset is walked in the index alone (the subquery reads no row), and
   * only the page's rows are read from the table.
   */
  page(where: string, params: Param[], orderBy: string, limit: number, offset: number): T[] {
    const sql =
      `SELECT json FROM ${this.kind} WHERE seq IN ` +
      `(SELECT seq FROM ${this.kind} WHERE ${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?) ORDER BY ${orderBy}`;
    return this.statement(sql)
      .all(...params, limit, offset)
      .map((row) => this.read(row)!);
  }

  /** The organization's number of rows: one lookup for a counted table (see TableSpec.counted). */
  countOf(org: string): number {
    if (!this.counted) return this.count("org = ?", org);
    const found = this.statement("SELECT n FROM row_count WHERE kind = ? AND org = ?").get(this.kind, org) as
      | { n: number }
      | undefined;
    return Number(found?.n ?? 0);
  }

  count(where: string, ...params: Param[]): number {
    return Number(
      (this.statement(`SELECT COUNT(*) AS n FROM ${this.kind} WHERE ${where}`).get(...params) as { n: number }).n,
    );
  }

  /** IDs of rows that still have planned steps. */
  plannedIds(): string[] {
    return (
      this.statement(`SELECT id FROM ${this.kind} WHERE planned = 1 ORDER BY seq`).all() as Array<{ id: string }>
    ).map((r) => r.id);
  }

  put(row: T): T {
    const record = row as T & { created_at?: string; plan?: unknown[] };
    this.upsert.run(
      row.id,
      row.org,
      record.created_at ?? "",
      record.plan && record.plan.length > 0 ? 1 : 0,
      ...this.columns.map(([, value]) => value(row)),
      JSON.stringify(row),
    );
    this.changed(this.kind, row.org);
    return row;
  }

  delete(id: string): void {
    this.remove.run(id);
  }

  /** Deletes every row matching the condition in one statement; answers how many. */
  deleteWhere(where: string, ...params: Param[]): number {
    return Number(this.statement(`DELETE FROM ${this.kind} WHERE ${where}`).run(...params).changes);
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
}

/**
 * Blocks this thread for `ms` milliseconds. Only between two runs of a transaction that lost a race: the store
 * is synchronous (a PostgreSQL statement already blocks the thread until its answer), so a replica waits here
 * as it waits for the database.
 */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** A table of each kind of record in the registry, as the store's member named by its collection (store.banks). */
export type RecordTables = {
  readonly [T in RecordType as (typeof RECORD_KINDS)[T]["collection"]]: Table<RowOf<T>>;
};

const SILENT: Logger = { enabled: false, info: () => {}, warn: () => {}, error: () => {} };

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
  /** The request log's table (request-log/). */
  readonly requestLog: RequestLogTable;
  /** The fault plan's armed rules and fired faults (faults/fault-plan.ts reads them). */
  readonly faultRules: Table<FaultRuleRow>;
  readonly faultsFired: Table<FiredFaultRow>;
  /** The dashboard's links and sessions (dashboard/access.ts makes and checks them). */
  readonly dashboardGrants: DashboardGrants;
  /** Retries scheduled work whose transaction failed because the disk is full or failing. */
  readonly recovery: StorageRecovery;
  private readonly db: SqlDatabase;
  private readonly getMetaStatement: SqlStatement;
  private readonly setMetaStatement: SqlStatement;
  private depth = 0;
  private committed: Array<() => void> = [];
  private readonly changeListeners = new Set<(kind: string, org: string) => void>();
  private closed = false;

  constructor(options: StoreOptions = {}) {
    this.db = openDatabase(options.path, options.durability);
    this.recovery = new StorageRecovery(() => this.checkpoint(), options.logger ?? SILENT, options.storageBackoff);
    // A change is announced once its transaction commits (a rolled-back write was never there).
    const changed = (kind: string, org: string) =>
      this.afterCommit(() => {
        for (const listener of this.changeListeners) listener(kind, org);
      });
    const table = <T extends Row>(spec: TableSpec<never>) =>
      new Table<T>(this.db, spec as unknown as TableSpec<T>, changed);
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
    this.requestLog = new RequestLogTable(this.db);
    this.db.exec(FAULT_TABLES_SQL);
    this.faultRules = table(FAULT_RULE_TABLE as TableSpec<never>);
    this.faultsFired = table(FAULT_FIRED_TABLE as TableSpec<never>);
    this.dashboardGrants = new DashboardGrants(this.db);
    this.getMetaStatement = this.db.prepare("SELECT value FROM sandbox_meta WHERE key = ?");
    this.setMetaStatement = this.db.prepare(
      "INSERT INTO sandbox_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    );
  }

  /**
   * The table of a kind of record, by its event type.
   *
   * @example
   * store.recordTable("BANK").get(id); // the same table as store.banks
   */
  recordTable<T extends RecordType>(type: T): Table<RowOf<T>> {
    return (this as RecordTables)[RECORD_KINDS[type].collection] as unknown as Table<RowOf<T>>;
  }

  /**
   * Runs `work` as one transaction: committed when it returns, rolled back when it throws (and the error
   * rethrown). Nested calls join the outer transaction. Callbacks queued with afterCommit run after the commit.
   */
  transaction<R>(work: () => R): R {
    if (this.depth > 0) return work();
    // On PostgreSQL a transaction that lost a race with another replica's is run again from the start: its
    // writes were rolled back and its after-commit work dropped, so the rerun decides on what is committed now.
    for (let attempt = 1; ; attempt++) {
      try {
        return this.transactionOnce(work);
      } catch (error) {
        const delay = conflictRetryDelay(error, attempt, Math.random());
        if (delay === undefined) throw error;
        if (delay > 0) pause(delay);
      }
    }
  }

  private transactionOnce<R>(work: () => R): R {
    this.depth++;
    this.db.exec("BEGIN");
    let result: R;
    try {
      result = work();
      this.db.exec("COMMIT");
    } catch (error) {
      this.committed = [];
      this.rollback();
      throw error;
    } finally {
      this.depth--;
    }
    const after = this.committed;
    this.committed = [];
    for (const callback of after) callback();
    return result;
  }

  /** Rolls back what is left of a failed transaction (SQLite may have rolled it back itself, e.g. on a full disk). */
  private rollback(): void {
    try {
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
    } catch {
      // The error that failed the transaction is the one to report; SQLite ends the transaction either way.
    }
  }

  /** Copies the WAL into the file and truncates it to zero bytes, giving its disk space back. */
  checkpoint(): void {
    this.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  }

  /** Runs `callback` once the current transaction commits (dropped if it rolls back); at once outside one. */
  afterCommit(callback: () => void): void {
    if (this.depth > 0) this.committed.push(callback);
    else callback();
  }

  /** Tells the change listeners that another replica committed a change of this kind (store.onChange). */
  announce(kind: string, org: string): void {
    for (const listener of this.changeListeners) listener(kind, org);
  }

  /** Calls `listener` with the kind and organization of every row written from now on (after its commit). */
  onChange(listener: (kind: string, org: string) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  getMeta(key: string): string | undefined {
    return (this.getMetaStatement.get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.setMetaStatement.run(key, value);
  }

  /** Which engine holds the tables: SQLite (a file or memory) or a PostgreSQL database replicas may share. */
  get engine(): "sqlite" | "postgres" {
    return this.db instanceof PostgresDatabase ? "postgres" : "sqlite";
  }

  /** A statement on the store's connection: run inside a transaction, it is part of it (the job queue's add_job). */
  statement(sql: string): SqlStatement {
    return this.db.prepare(sql);
  }

  /** The next integer wallet ID (wallet IDs are integers, unlike every other ID). */
  nextWalletId(): number {
    const next = Number(this.getMeta("wallet_seq") ?? "1000") + 1;
    this.setMeta("wallet_seq", String(next));
    return next;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}
