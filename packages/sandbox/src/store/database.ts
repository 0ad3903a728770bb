// Opens the sandbox's SQLite database through node:sqlite: `:memory:` by default, a file with --db. A file is
// put in WAL mode and held with an exclusive lock for as long as the sandbox runs, so a second sandbox on the
// same file refuses to start instead of losing writes; the operating system drops the lock when the process
// ends, kill -9 included. The schema carries its version in PRAGMA user_version and the file says it is a
// sandbox's with PRAGMA application_id. Before a file is used it is checked: whose it is (file-identity.ts),
// and PRAGMA quick_check, so a damaged file is refused at start instead of failing request after request.
// Whatever stops a start becomes one DatabaseError naming the file and what to do (start-errors.ts).
import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { APPLICATION_ID, inspectFile, judgeFile, readFacts, type Verdict } from "./file-identity.js";
import { openPostgres } from "./postgres/pg-open.js";
import { type SqlDatabase, SqliteDatabase } from "./sql.js";
import { sqlite } from "./sqlite.js";
import { SCHEMA_SQL, SCHEMA_VERSION } from "./schema.js";
import { DatabaseError, type DatabaseProblem, diagnose, locateDatabase, startErrorMessage } from "./start-errors.js";

export { DatabaseError, type DatabaseProblem } from "./start-errors.js";

/**
 * How hard a commit waits for the disk. "normal" (the default): a committed request survives a crash of the
 * process (kill -9); the last commits may be lost if the machine loses power. "full": every commit is fsynced,
 * so it survives power loss too, at the cost of one fsync per write request.
 */
export type Durability = "normal" | "full";

function refusal(file: string, problem: DatabaseProblem, detail?: string, cause?: unknown): DatabaseError {
  return new DatabaseError(startErrorMessage(problem, file, detail), { file, problem, cause });
}

function refuseUnlessOpen(file: string, verdict: Verdict | undefined): void {
  if (verdict && "refuse" in verdict) throw refusal(file, verdict.refuse, verdict.detail);
}

/** A missing parent directory is created (as before); a path that is a directory is refused. */
function prepareLocation(file: string): void {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (stat?.isDirectory()) throw refusal(file, "is-directory");
  if (!stat) mkdirSync(dirname(file), { recursive: true });
}

/** PRAGMA quick_check: every page of every table and index is read once (see the README for its cost). */
function checkIntegrity(db: DatabaseSync, file: string): void {
  const first = db.prepare("PRAGMA quick_check(1)").get() as { quick_check?: string } | undefined;
  // A finding starts with "*** in database main ***", which says nothing to someone reading one line.
  const finding = (first?.quick_check ?? "no answer").replace(/^\*\*\* in database \w+ \*\*\*\s*/, "");
  if (finding !== "ok") throw refusal(file, "damaged", `PRAGMA quick_check: ${finding}`);
}

/** Takes the file's exclusive lock; a "locked" or "busy" failure becomes the in-use error. */
function holdLock(db: DatabaseSync): void {
  db.exec("PRAGMA journal_mode = WAL");
  // The first write transaction takes the exclusive lock; exclusive mode keeps it until close.
  db.exec("BEGIN IMMEDIATE");
  db.exec("COMMIT");
}

function pragmaNumber(db: DatabaseSync, name: string): number {
  return Number((db.prepare(`PRAGMA ${name}`).get() as Record<string, number>)[name]);
}

/** Creates what is missing. Writes nothing to an up-to-date file, so a start on a full disk still succeeds. */
function ensureSchema(db: DatabaseSync): void {
  db.exec("BEGIN");
  db.exec(SCHEMA_SQL);
  if (pragmaNumber(db, "user_version") !== SCHEMA_VERSION) db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  if (pragmaNumber(db, "application_id") !== APPLICATION_ID) db.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
  db.exec("COMMIT");
}

function openMemory(): DatabaseSync {
  const db = new (sqlite().DatabaseSync)(":memory:");
  ensureSchema(db);
  return db;
}

/** Checks the opened file (whose it is, then its pages) before the first write to it. */
function prepareFile(db: DatabaseSync, file: string, durability: Durability): void {
  db.exec("PRAGMA locking_mode = EXCLUSIVE");
  // Read through the connection, the facts include what a crash left in the WAL (inspectFile cannot see it).
  const verdict = judgeFile(readFacts(db));
  refuseUnlessOpen(file, verdict);
  if (!("open" in verdict && verdict.open === "fresh")) checkIntegrity(db, file);
  holdLock(db);
  db.exec(`PRAGMA synchronous = ${durability === "full" ? "FULL" : "NORMAL"}`);
  ensureSchema(db);
}

function openFile(file: string, durability: Durability): DatabaseSync {
  prepareLocation(file);
  // A file refused here (another application's, the old sql.js format, not SQLite) is never opened for writing.
  refuseUnlessOpen(file, inspectFile(file));
  const db = new (sqlite().DatabaseSync)(file, { timeout: 0 });
  try {
    prepareFile(db, file, durability);
  } catch (error) {
    try {
      db.close();
    } catch {
      // The failure that stopped the start says more than a failing close.
    }
    throw error;
  }
  return db;
}

/**
 * Opens (creating if needed) the database: in memory without a path, else the file, checked and locked for
 * this process.
 *
 * @example
 * const db = await openDatabase("./sandbox.db"); // rejects with a DatabaseError (naming the file) when it cannot be used
 */
export async function openDatabase(path?: string, durability: Durability = "normal"): Promise<SqlDatabase> {
  const location = locateDatabase(path);
  if ("refuse" in location) throw refusal(location.shown, location.refuse, location.scheme);
  if (location.engine === "memory") return new SqliteDatabase(openMemory());
  if (location.engine === "postgres") return await openPostgres(location.url, SCHEMA_SQL, SCHEMA_VERSION);
  const file = resolve(location.path);
  try {
    return new SqliteDatabase(openFile(file, durability));
  } catch (error) {
    if (error instanceof DatabaseError) throw error;
    const { problem, detail } = diagnose(error, file);
    throw refusal(file, problem, detail, error);
  }
}
