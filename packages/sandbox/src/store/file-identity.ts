// Whose file is this? A sandbox file carries APPLICATION_ID in its header (PRAGMA application_id, bytes 68-71),
// so another application's SQLite file is recognised before anything is written to it, whatever user_version
// it has. Files of the sandbox versions before the id (schema version 1) are recognised by their exact set of
// tables and stamped with the id when opened.
import { closeSync, openSync, readSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { DatabaseSync } from "node:sqlite";
import { sqlite } from "./sqlite.js";
import { OLDEST_UPGRADABLE_VERSION, SCHEMA_VERSION } from "./schema.js";
import type { DatabaseProblem } from "./start-errors.js";

/** PRAGMA application_id of a sandbox file: ASCII "EXKS" (EXchange-Kit Sandbox), 0x45584B53. */
export const APPLICATION_ID = 0x45584b53;

/** The tables of schema version 1, the version whose files were written before the application id. */
export const VERSION_1_TABLES: readonly string[] = [
  "row_count",
  "customer",
  "bank",
  "wallet",
  "payout",
  "payin",
  "edd",
  "event",
  "payout_quotation",
  "payin_quotation",
  "remitter",
  "sender_kyc",
  "org_settings",
  "sandbox_meta",
];

export interface FileFacts {
  applicationId: number;
  userVersion: number;
  /** The names of the file's tables (SQLite's own sqlite_* tables are ignored). */
  tables: readonly string[];
}

/** Open the file ("fresh": no tables yet; "legacy": a version 1 file without the id), or refuse it. */
export type Verdict = { open: "fresh" | "ours" | "legacy" } | { refuse: DatabaseProblem; detail?: string };

function versionVerdict(version: number): Verdict {
  if (version > SCHEMA_VERSION) return { refuse: "newer-version", detail: String(version) };
  // No released schema precedes version 1 except the sql.js format; from it on, opening creates what is missing.
  if (version > 0 && version < OLDEST_UPGRADABLE_VERSION) return { refuse: "no-migration", detail: String(version) };
  return { open: "ours" };
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === b.length && b.every((name) => set.has(name));
}

/**
 * Whether the sandbox may open a file with these facts.
 *
 * @example
 * judgeFile({ applicationId: 0, userVersion: 1, tables: ["invoices"] }); // { refuse: "other-application", … }
 */
export function judgeFile(facts: FileFacts): Verdict {
  const tables = facts.tables.filter((name) => !name.startsWith("sqlite_"));
  if (facts.applicationId === APPLICATION_ID) return versionVerdict(facts.userVersion);
  if (facts.applicationId !== 0) {
    const hex = (facts.applicationId >>> 0).toString(16).padStart(8, "0");
    return { refuse: "other-application", detail: `application_id 0x${hex}` };
  }
  if (tables.length === 0 && facts.userVersion === 0) return { open: "fresh" };
  if (facts.userVersion === 0 && tables.includes("records") && tables.includes("meta"))
    return { refuse: "older-format" };
  if (facts.userVersion === 1 && sameSet(tables, VERSION_1_TABLES)) return { open: "legacy" };
  return { refuse: "other-application", detail: "no sandbox application_id, and tables that are not a sandbox's" };
}

/** Reads the facts through an open connection (which sees the WAL's committed content too). */
export function readFacts(db: DatabaseSync): FileFacts {
  const pragma = (name: string) => Number((db.prepare(`PRAGMA ${name}`).get() as Record<string, number>)[name]);
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
  return {
    applicationId: pragma("application_id"),
    userVersion: pragma("user_version"),
    tables: rows.map((r) => r.name),
  };
}

const MAGIC = "SQLite format 3\0";

/**
 * The application id in a database header (the file's first 100 bytes), or "not-sqlite" when the bytes are not
 * an SQLite header.
 *
 * @example
 * headerApplicationId(readFileSync("sandbox.db").subarray(0, 100)); // 0x45584b53
 */
export function headerApplicationId(header: Uint8Array): number | "not-sqlite" {
  if (header.length < 100 || Buffer.from(header.subarray(0, 16)).toString("latin1") !== MAGIC) return "not-sqlite";
  return Buffer.from(header).readUInt32BE(68);
}

/** The file's first 100 bytes (fewer when it is shorter; none when it does not exist). */
function readHeader(file: string): Buffer {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return Buffer.alloc(0);
    throw error;
  }
  try {
    const header = Buffer.alloc(100);
    return header.subarray(0, readSync(fd, header, 0, 100, 0));
  } finally {
    closeSync(fd);
  }
}

/** Reads a file without changing it: immutable=1 takes no lock and creates no -wal or -shm file. */
function untouchedFacts(file: string): FileFacts | undefined {
  const url = pathToFileURL(file);
  url.search = "immutable=1";
  try {
    const db = new (sqlite().DatabaseSync)(url, { readOnly: true });
    try {
      return readFacts(db);
    } finally {
      db.close();
    }
  } catch {
    // Unreadable this way (a file being written, a damaged page): opening it for real says why.
    return undefined;
  }
}

/**
 * Judges an existing file before it is opened for writing, so a refused file is never changed: the header
 * alone for a file that has an application id, and a read that changes nothing for one without. Undefined: no
 * objection yet (a new or empty file, a sandbox file, or facts that only the real open can read).
 */
export function inspectFile(file: string): Verdict | undefined {
  const header = readHeader(file);
  if (header.length === 0) return undefined;
  const id = headerApplicationId(header);
  if (id === "not-sqlite") return { refuse: "not-sqlite" };
  if (id === APPLICATION_ID) return undefined;
  if (id !== 0) return judgeFile({ applicationId: id, userVersion: 0, tables: [] });
  const facts = untouchedFacts(file);
  const verdict = facts && judgeFile(facts);
  return verdict && "refuse" in verdict ? verdict : undefined;
}
