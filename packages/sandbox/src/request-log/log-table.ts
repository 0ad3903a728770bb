// Where the request log is kept: a table of the sandbox's own database (in memory, or the --db file), one row per
// request, numbered per organization. Bounded: appending past `keep` entries of an organization drops its oldest.
// The log sits behind RequestLogStorage so that another engine can hold it as well.
import type { SqlDatabase, SqlStatement } from "../store/postgres/pg-database.js";
import { parseJson } from "@exchange-kit/signing";
import type { RequestLogEntry } from "./entry.js";
import { filterSql, type RequestLogFilter } from "./log-filter.js";

/** What the request log needs of a store. */
export interface RequestLogStorage {
  /** Numbers the entries (after the organization's last) and keeps them; drops all but the newest `keep`. */
  append(org: string, entries: ReadonlyArray<Omit<RequestLogEntry, "seq">>, keep: number): RequestLogEntry[];
  query(org: string, filter: RequestLogFilter): RequestLogEntry[];
  /** The organization's oldest and newest numbers kept (0 and 0 when none). */
  bounds(org: string): { oldest: number; latest: number };
}

const TABLE_SQL = [
  "CREATE TABLE IF NOT EXISTS request_log (row INTEGER PRIMARY KEY, org TEXT NOT NULL, seq INTEGER NOT NULL, at TEXT NOT NULL, status INTEGER NOT NULL, err_code TEXT, operation_id TEXT, json TEXT NOT NULL);",
  "CREATE UNIQUE INDEX IF NOT EXISTS request_log_org_seq ON request_log (org, seq);",
  "CREATE INDEX IF NOT EXISTS request_log_org_status ON request_log (org, status, seq);",
  "CREATE INDEX IF NOT EXISTS request_log_org_err_code ON request_log (org, err_code, seq);",
  "CREATE INDEX IF NOT EXISTS request_log_org_operation ON request_log (org, operation_id, seq);",
].join("\n");

export class RequestLogTable implements RequestLogStorage {
  private readonly insert: SqlStatement;
  private readonly trim: SqlStatement;
  private readonly range: SqlStatement;
  private readonly statements = new Map<string, SqlStatement>();

  constructor(private readonly db: SqlDatabase) {
    // Created here, not in the schema of the records: a file of an earlier version gains it at its first start.
    db.exec(TABLE_SQL);
    this.insert = db.prepare(
      "INSERT INTO request_log (org, seq, at, status, err_code, operation_id, json) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    this.trim = db.prepare("DELETE FROM request_log WHERE org = ? AND seq <= ?");
    this.range = db.prepare("SELECT MIN(seq) AS oldest, MAX(seq) AS latest FROM request_log WHERE org = ?");
  }

  bounds(org: string): { oldest: number; latest: number } {
    const found = this.range.get(org) as { oldest: number | null; latest: number | null };
    return { oldest: Number(found.oldest ?? 0), latest: Number(found.latest ?? 0) };
  }

  append(org: string, entries: ReadonlyArray<Omit<RequestLogEntry, "seq">>, keep: number): RequestLogEntry[] {
    let seq = this.bounds(org).latest;
    const numbered = entries.map((entry) => ({ seq: ++seq, ...entry }));
    for (const entry of numbered) {
      this.insert.run(
        org,
        entry.seq,
        entry.at,
        entry.status,
        entry.err_code,
        entry.operation_id,
        JSON.stringify(entry),
      );
    }
    if (seq > keep) this.trim.run(org, seq - keep);
    return numbered;
  }

  query(org: string, filter: RequestLogFilter): RequestLogEntry[] {
    const { where, params } = filterSql(filter);
    const sql = `SELECT json FROM request_log WHERE org = ? AND ${where} ORDER BY seq ${filter.order === "asc" ? "ASC" : "DESC"} LIMIT ?`;
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement
      .all(org, ...params, filter.limit)
      .map((row) => parseJson((row as { json: string }).json) as RequestLogEntry);
  }
}
