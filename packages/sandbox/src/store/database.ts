// Opens the sandbox's SQLite database through node:sqlite: `:memory:` by default, a file with --db. A file is
// put in WAL mode and held with an exclusive lock for as long as the sandbox runs, so a second sandbox on the
// same file refuses to start instead of losing writes; the operating system drops the lock when the process
// ends, kill -9 included. The schema carries its version in PRAGMA user_version.
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { SCHEMA_SQL, SCHEMA_VERSION } from "./schema.js";

/**
 * How hard a commit waits for the disk. "normal" (the default): a committed request survives a crash of the
 * process (kill -9); the last commits may be lost if the machine loses power. "full": every commit is fsynced,
 * so it survives power loss too, at the cost of one fsync per write request.
 */
export type Durability = "normal" | "full";

export class DatabaseError extends Error {
  override readonly name = "DatabaseError";
}

function tableNames(db: DatabaseSync): Set<string> {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
  return new Set(rows.map((r) => r.name));
}

function checkVersion(db: DatabaseSync, file: string): void {
  const version = (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
  const tables = tableNames(db);
  if (version === 0 && tables.has("records") && tables.has("meta")) {
    throw new DatabaseError(
      `${file} was written by an older sandbox (the sql.js format, version 0), which this sandbox cannot read. ` +
        `Start with a new --db file, or delete ${file} to begin again (sandbox state is test data).`,
    );
  }
  if (version === 0 && tables.size > 0) {
    throw new DatabaseError(`${file} is an SQLite database, but not a sandbox's: use another --db file.`);
  }
  if (version > SCHEMA_VERSION) {
    throw new DatabaseError(
      `${file} has sandbox schema version ${version}, newer than this sandbox's ${SCHEMA_VERSION}: upgrade @exchange-kit/sandbox or use another --db file.`,
    );
  }
  if (version > 0 && version < SCHEMA_VERSION) {
    // No released schema precedes version 1 except the sql.js format above; a later version adds its steps here.
    throw new DatabaseError(
      `${file} has sandbox schema version ${version}, which has no migration to ${SCHEMA_VERSION}: use another --db file.`,
    );
  }
}

function inUse(file: string): DatabaseError {
  return new DatabaseError(
    `${file} is in use by another sandbox (one file, one sandbox): stop it, or start this one with another --db file.`,
  );
}

/** Takes the file's exclusive lock; openDatabase turns a "locked" or "busy" failure into the in-use error. */
function holdLock(db: DatabaseSync): void {
  db.exec("PRAGMA locking_mode = EXCLUSIVE");
  db.exec("PRAGMA journal_mode = WAL");
  // The first write transaction takes the exclusive lock; exclusive mode keeps it until close.
  db.exec("BEGIN IMMEDIATE");
  db.exec("COMMIT");
}

/**
 * Opens (creating if needed) the database: in memory without a path, else the file, locked for this process.
 *
 * @example
 * const db = openDatabase("./sandbox.db"); // throws DatabaseError if another sandbox holds the file
 */
export function openDatabase(path?: string, durability: Durability = "normal"): DatabaseSync {
  if (!path || path === ":memory:") {
    const db = new DatabaseSync(":memory:");
    db.exec(SCHEMA_SQL);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    return db;
  }
  const file = resolve(path);
  mkdirSync(dirname(file), { recursive: true });
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file, { timeout: 0 });
  } catch (error) {
    throw new DatabaseError(`cannot open ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    // The version is read before anything is written (WAL mode changes the file's header): a file this sandbox
    // refuses, such as one of the old sql.js format, is left exactly as it was for the version that wrote it.
    checkVersion(db, file);
    holdLock(db);
    db.exec(`PRAGMA synchronous = ${durability === "full" ? "FULL" : "NORMAL"}`);
    db.exec("BEGIN");
    db.exec(SCHEMA_SQL);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.exec("COMMIT");
  } catch (error) {
    db.close();
    if (error instanceof DatabaseError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (/not a database|malformed/i.test(message))
      throw new DatabaseError(`${file} is not an SQLite database: use another --db file.`);
    if (/locked|busy/i.test(message)) throw inUse(file);
    throw error;
  }
  return db;
}
