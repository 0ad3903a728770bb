import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSandbox } from "../src/index.js";
import { SCHEMA_VERSION } from "../src/store/schema.js";
import { Api, ORG_A } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "sandbox-schema-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const options = { organizations: [ORG_A], autoProgressMs: false as const };

function sqlite(file: string, sql: string): void {
  const db = new DatabaseSync(file);
  db.exec(sql);
  db.close();
}

describe("schema version of a --db file", () => {
  it("records its schema version in the file and opens it again", async () => {
    const file = join(dir, "current.db");
    const first = await createSandbox({ ...options, db: file });
    await new Api(first).ok("POST", "/cms/api/v1/customer/create", {
      client_reference_id: "v",
      full_name: "Asha",
      alpha_3_country_code: "IND",
    });
    await first.close();
    const db = new DatabaseSync(file);
    expect((db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version).toBe(SCHEMA_VERSION);
    db.close();
    const second = await createSandbox({ ...options, db: file });
    expect((await new Api(second).ok("GET", "/cms/api/v1/customer/list")).count).toBe(1);
    await second.close();
  });

  it("refuses a file of the old sql.js format, saying to start with a new file", async () => {
    const file = join(dir, "old-sqljs.db");
    sqlite(
      file,
      `CREATE TABLE records (kind TEXT NOT NULL, id TEXT NOT NULL, org TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY (kind, id));
       CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
       INSERT INTO records VALUES ('customer', 'c1', 'o1', '{"id":"c1"}');`,
    );
    await expect(createSandbox({ ...options, db: file })).rejects.toThrow(
      /older sandbox \(the sql\.js format.*Start with a new --db file/,
    );
  });

  it("leaves a refused file byte for byte as it was, for the version that wrote it", async () => {
    const file = join(dir, "old-untouched.db");
    sqlite(
      file,
      `CREATE TABLE records (kind TEXT NOT NULL, id TEXT NOT NULL, org TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY (kind, id));
       CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
    );
    const before = readFileSync(file);
    await expect(createSandbox({ ...options, db: file })).rejects.toThrow(/sql\.js format/);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it("refuses a file written by a newer sandbox, saying to upgrade", async () => {
    const file = join(dir, "newer.db");
    sqlite(file, `PRAGMA user_version = ${SCHEMA_VERSION + 1}; CREATE TABLE future (x);`);
    await expect(createSandbox({ ...options, db: file })).rejects.toThrow(
      /newer than this sandbox's.*upgrade @exchange-kit\/sandbox/,
    );
  });

  it("refuses an SQLite file that is not a sandbox's, and a file that is not SQLite at all", async () => {
    const other = join(dir, "other.db");
    sqlite(other, "CREATE TABLE invoices (id INTEGER PRIMARY KEY);");
    await expect(createSandbox({ ...options, db: other })).rejects.toThrow(/not a sandbox's/);
    const text = join(dir, "notes.db");
    writeFileSync(text, "these are notes, not a database\n".repeat(100));
    await expect(createSandbox({ ...options, db: text })).rejects.toThrow(/is not an SQLite database/);
  });
});
