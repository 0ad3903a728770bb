// SQLite file persistence through sql.js (SQLite compiled to WebAssembly: no native build). The whole database
// lives in memory; it is read from the file at start and written back (atomically: temp file + rename) shortly
// after each burst of writes and on close. Rows are stored as JSON documents keyed by kind and ID.
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Database } from "sql.js";
import type { Persistence } from "./store.js";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS records (
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  org TEXT NOT NULL,
  json TEXT NOT NULL,
  PRIMARY KEY (kind, id)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

export class SqliteFile implements Persistence {
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;
  private closed = false;

  private constructor(
    private readonly db: Database,
    readonly path: string,
    private readonly debounceMs: number,
  ) {}

  static async open(path: string, debounceMs = 25): Promise<SqliteFile> {
    const { default: initSqlJs } = await import("sql.js");
    const SQL = await initSqlJs();
    const file = resolve(path);
    const fresh = !existsSync(file);
    const db = fresh ? new SQL.Database() : new SQL.Database(readFileSync(file));
    db.run(SCHEMA);
    const store = new SqliteFile(db, file, debounceMs);
    // A new file is written at once, so an unwritable path fails at start rather than at the first write.
    if (fresh) {
      store.dirty = true;
      store.flush();
    }
    return store;
  }

  rows(): Array<{ kind: string; json: string }> {
    const out: Array<{ kind: string; json: string }> = [];
    const statement = this.db.prepare("SELECT kind, json FROM records ORDER BY rowid");
    try {
      while (statement.step()) {
        const [kind, json] = statement.get() as [string, string];
        out.push({ kind, json });
      }
    } finally {
      statement.free();
    }
    return out;
  }

  meta(): Array<[string, string]> {
    const result = this.db.exec("SELECT key, value FROM meta");
    return (result[0]?.values ?? []).map(([key, value]) => [String(key), String(value)]);
  }

  upsert(kind: string, id: string, org: string, row: unknown): void {
    this.db.run("INSERT OR REPLACE INTO records (kind, id, org, json) VALUES (?, ?, ?, ?)", [kind, id, org, JSON.stringify(row)]);
    this.changed();
  }

  remove(kind: string, id: string): void {
    this.db.run("DELETE FROM records WHERE kind = ? AND id = ?", [kind, id]);
    this.changed();
  }

  setMeta(key: string, value: string): void {
    this.db.run("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [key, value]);
    this.changed();
  }

  private changed(): void {
    if (this.closed) return;
    this.dirty = true;
    // Debounced: a request that writes several rows, or a burst of requests, costs one file write.
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.debounceMs);
  }

  /** Writes the database to the file now, if anything changed since the last write. */
  flush(): void {
    if (!this.dirty) return;
    this.dirty = false;
    mkdirSync(dirname(this.path), { recursive: true });
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, this.db.export());
    renameSync(temp, this.path);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.flush();
    this.closed = true;
    this.db.close();
  }
}
