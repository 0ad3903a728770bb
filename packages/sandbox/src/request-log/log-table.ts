// Where the request log is kept: a table of the sandbox's own database (in memory, the --db file, or PostgreSQL),
// one row per request, numbered per organization. Bounded: appending past `keep` entries of an organization drops
// its oldest. The log sits behind RequestLogStorage so that another engine can hold it as well.
//
// Numbers come from a counter row per organization (request_log_seq), raised by each batch in the transaction that
// inserts it. The row stays locked until that transaction commits, so replicas sharing a database never hand out
// one number twice, and numbers follow the order batches are kept: a follower reading `after` its last number
// never skips an entry that commits later with a smaller one.
import type { SqlDatabase, SqlStatement } from "../store/sql.js";
import { parseJson } from "@exchange-kit/signing";
import type { RequestLogEntry } from "./entry.js";
import { filterSql, type RequestLogFilter } from "./log-filter.js";

/** What the request log needs of a store. */
export interface RequestLogStorage {
  /** Numbers the entries (after the organization's last) and keeps them; drops all but the newest `keep`. */
  append(org: string, entries: ReadonlyArray<Omit<RequestLogEntry, "seq">>, keep: number): Promise<RequestLogEntry[]>;
  query(org: string, filter: RequestLogFilter): Promise<RequestLogEntry[]>;
  /** The organization's oldest and newest numbers kept (0 and 0 when none). */
  bounds(org: string): Promise<{ oldest: number; latest: number }>;
}

/** The log's tables, created beside the schema of the records (a file of an earlier version gains them at its first start). */
export const REQUEST_LOG_TABLE_SQL = [
  "CREATE TABLE IF NOT EXISTS request_log (row INTEGER PRIMARY KEY, org TEXT NOT NULL, seq INTEGER NOT NULL, at TEXT NOT NULL, status INTEGER NOT NULL, err_code TEXT, operation_id TEXT, json TEXT NOT NULL);",
  "CREATE UNIQUE INDEX IF NOT EXISTS request_log_org_seq ON request_log (org, seq);",
  "CREATE INDEX IF NOT EXISTS request_log_org_status ON request_log (org, status, seq);",
  "CREATE INDEX IF NOT EXISTS request_log_org_err_code ON request_log (org, err_code, seq);",
  "CREATE INDEX IF NOT EXISTS request_log_org_operation ON request_log (org, operation_id, seq);",
  "CREATE TABLE IF NOT EXISTS request_log_seq (org TEXT PRIMARY KEY, last INTEGER NOT NULL);",
  // A log kept by an earlier version (numbered from MAX(seq)) goes on from its last number.
  "INSERT INTO request_log_seq (org, last) SELECT org, MAX(seq) FROM request_log GROUP BY org ON CONFLICT (org) DO NOTHING;",
].join("\n");

/** Entries per INSERT: 7 values each, well under either engine's limit of parameters in one statement. */
const ROWS_PER_INSERT = 100;
const ENTRY_COLUMNS = "(org, seq, at, status, err_code, operation_id, json)";

/**
 * The rows' values of an INSERT, in column order.
 *
 * @example
 * insertValues("org_a", [{ seq: 3, at, status: 200, err_code: null, operation_id: "getCustomer", ... }]);
 * // ["org_a", 3, at, 200, null, "getCustomer", '{"seq":3,...}']
 */
export function insertValues(org: string, entries: readonly RequestLogEntry[]): Array<string | number | null> {
  return entries.flatMap((entry) => [
    org,
    entry.seq,
    entry.at,
    entry.status,
    entry.err_code,
    entry.operation_id,
    JSON.stringify(entry),
  ]);
}

export class RequestLogTable implements RequestLogStorage {
  private readonly reserve: SqlStatement;
  private readonly trim: SqlStatement;
  private readonly range: SqlStatement;
  private readonly statements = new Map<string, SqlStatement>();

  /**
   * Over the store's database: `store.statement` prepares on it. Run REQUEST_LOG_TABLE_SQL first (Store.open does,
   * given it in its featureSchema: compose/store-wiring.ts).
   */
  constructor(private readonly db: Pick<SqlDatabase, "prepare">) {
    this.reserve = db.prepare(
      "INSERT INTO request_log_seq (org, last) VALUES (?, ?) ON CONFLICT (org) DO UPDATE SET last = request_log_seq.last + excluded.last RETURNING last",
    );
    this.trim = db.prepare("DELETE FROM request_log WHERE org = ? AND seq <= ?");
    this.range = db.prepare("SELECT MIN(seq) AS oldest, MAX(seq) AS latest FROM request_log WHERE org = ?");
  }

  private statement(sql: string): SqlStatement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  async bounds(org: string): Promise<{ oldest: number; latest: number }> {
    const found = (await this.range.get(org)) as { oldest: number | null; latest: number | null };
    return { oldest: Number(found.oldest ?? 0), latest: Number(found.latest ?? 0) };
  }

  async append(
    org: string,
    entries: ReadonlyArray<Omit<RequestLogEntry, "seq">>,
    keep: number,
  ): Promise<RequestLogEntry[]> {
    if (entries.length === 0) return [];
    const last = Number(((await this.reserve.get(org, entries.length)) as { last: number }).last);
    let seq = last - entries.length;
    const numbered = entries.map((entry) => ({ seq: ++seq, ...entry }));
    // Bound values (run), not a held write: entries carry whole bodies, which a held write would escape into the
    // statement's text, character by character (14 % of a replica's CPU on list pages).
    for (let from = 0; from < numbered.length; from += ROWS_PER_INSERT) {
      const rows = numbered.slice(from, from + ROWS_PER_INSERT);
      const placeholders = rows.map(() => "(?, ?, ?, ?, ?, ?, ?)").join(", ");
      await this.statement(`INSERT INTO request_log ${ENTRY_COLUMNS} VALUES ${placeholders}`).run(
        ...insertValues(org, rows),
      );
    }
    if (last > keep) await this.trim.write(org, last - keep);
    return numbered;
  }

  async query(org: string, filter: RequestLogFilter): Promise<RequestLogEntry[]> {
    const { where, params } = filterSql(filter);
    const sql = `SELECT json FROM request_log WHERE org = ? AND ${where} ORDER BY seq ${filter.order === "asc" ? "ASC" : "DESC"} LIMIT ?`;
    return (await this.statement(sql).all(org, ...params, filter.limit)).map(
      (row) => parseJson((row as { json: string }).json) as RequestLogEntry,
    );
  }
}
