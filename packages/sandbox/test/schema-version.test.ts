import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSandbox, DatabaseError } from "../src/index.js";
import { APPLICATION_ID } from "../src/store/file-identity.js";
import { SCHEMA_SQL, SCHEMA_VERSION } from "../src/store/schema.js";
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
    sqlite(
      file,
      `PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${SCHEMA_VERSION + 1}; CREATE TABLE future (x);`,
    );
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

// Whose file it is: the header's application_id (bytes 68-71), read here without SQLite so that reading it
// changes nothing. Bytes 18 and 19 are 1 in rollback-journal mode and 2 in WAL mode.
function header(file: string): { applicationId: string; journal: "rollback" | "wal" } {
  const bytes = readFileSync(file).subarray(0, 100);
  return {
    applicationId: bytes.subarray(68, 72).toString("latin1"),
    journal: bytes[18] === 2 && bytes[19] === 2 ? "wal" : "rollback",
  };
}

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const leftBeside = (file: string) => ["-wal", "-shm", "-journal"].filter((suffix) => existsSync(`${file}${suffix}`));

/** Starts a sandbox on `file` and answers the DatabaseError it refuses with. */
async function refusal(file: string): Promise<DatabaseError> {
  const error = await createSandbox({ ...options, db: file }).then(
    async (sandbox) => {
      await sandbox.close();
      throw new Error(`the sandbox started on ${file}`);
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DatabaseError);
  return error as DatabaseError;
}

const OTHER_APP = `PRAGMA user_version = 1;
  CREATE TABLE invoices (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, total TEXT NOT NULL);
  CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT);
  INSERT INTO invoices (customer, total) VALUES ('c1', '10.00'), ('c2', '12.50');`;

describe("another application's SQLite file", () => {
  it("refuses a file with user_version 1 and tables of its own, naming the file", async () => {
    const file = join(dir, "other-app.db");
    sqlite(file, OTHER_APP);
    const error = await refusal(file);
    expect(error.problem).toBe("other-application");
    expect(error.file).toBe(file);
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/not a sandbox's.*left untouched: use another --db file/);
    expect(error.message).not.toContain("\n");
  });

  it("leaves a refused rollback-journal file byte for byte as it was, still in its journal mode, with nothing beside it", async () => {
    const file = join(dir, "other-app-rollback.db");
    sqlite(file, OTHER_APP);
    const before = sha256(file);
    expect(header(file).journal).toBe("rollback");
    await refusal(file);
    expect(sha256(file)).toBe(before);
    expect(header(file).journal).toBe("rollback");
    expect(leftBeside(file)).toEqual([]);
  });

  it("leaves a refused WAL-mode file byte for byte as it was, creating no -wal or -shm beside it", async () => {
    const file = join(dir, "other-app-wal.db");
    sqlite(file, `${OTHER_APP} PRAGMA journal_mode = WAL;`);
    expect(header(file).journal).toBe("wal");
    expect(leftBeside(file)).toEqual([]);
    const before = sha256(file);
    await refusal(file);
    expect(sha256(file)).toBe(before);
    expect(leftBeside(file)).toEqual([]);
  });

  it("refuses a file with another application's application_id even when its tables are the sandbox's", async () => {
    const file = join(dir, "other-id.db");
    sqlite(file, `${SCHEMA_SQL} PRAGMA user_version = 1; PRAGMA application_id = 305419896;`);
    const before = sha256(file);
    const error = await refusal(file);
    expect(error.problem).toBe("other-application");
    expect(error.message).toContain("application_id 0x12345678");
    expect(sha256(file)).toBe(before);
    expect(leftBeside(file)).toEqual([]);
  });

  it("refuses a version 1 file without the application id whose tables are the sandbox's plus one", async () => {
    const file = join(dir, "almost-ours.db");
    sqlite(file, `${SCHEMA_SQL} CREATE TABLE invoices (id INTEGER PRIMARY KEY); PRAGMA user_version = 1;`);
    const before = sha256(file);
    expect((await refusal(file)).problem).toBe("other-application");
    expect(sha256(file)).toBe(before);
  });
});

describe("the sandbox's application id", () => {
  it('stamps a new file with application_id 0x45584B53 ("EXKS")', async () => {
    const file = join(dir, "new-stamped.db");
    const sandbox = await createSandbox({ ...options, db: file });
    await sandbox.close();
    expect(APPLICATION_ID).toBe(0x45584b53);
    expect(header(file).applicationId).toBe("EXKS");
  });

  it("takes an existing empty file as a new one and stamps it", async () => {
    const file = join(dir, "empty.db");
    writeFileSync(file, "");
    const sandbox = await createSandbox({ ...options, db: file });
    await sandbox.close();
    expect(header(file).applicationId).toBe("EXKS");
  });

  it("opens a file of the previous version (schema 1, no application id) with its records, and stamps it", async () => {
    const file = join(dir, "previous-version.db");
    const first = await createSandbox({ ...options, db: file });
    await new Api(first).ok("POST", "/cms/api/v1/customer/create", {
      client_reference_id: "kept",
      full_name: "Asha",
      alpha_3_country_code: "IND",
    });
    await first.close();
    // What the previous version wrote: the same schema and user_version 1, application_id never set, and no
    // request log, fault plan nor dashboard grants (their tables came later, created at start) nor organization
    // table (schema 2).
    sqlite(
      file,
      "DROP TABLE request_log; DROP TABLE fault_rule; DROP TABLE fault_fired; DROP TABLE dashboard_grant; DROP TABLE organization; PRAGMA user_version = 1; PRAGMA application_id = 0",
    );
    expect(header(file).applicationId).toBe("\0\0\0\0");
    const second = await createSandbox({ ...options, db: file });
    const list = await new Api(second).ok("GET", "/cms/api/v1/customer/list");
    await second.close();
    expect(list.results.map((c: { client_reference_id: string }) => c.client_reference_id)).toEqual(["kept"]);
    expect(header(file).applicationId).toBe("EXKS");
  });
});
