// Why a --db file cannot be used, as one line that names the file and says what to do. SQLite's own words
// ("unable to open database file", "disk I/O error", "attempt to write a readonly database") name neither the
// file nor the cause, so the code of the failure is mapped to a problem, refined by asking the file system
// whether the file and its directory are writable, and each problem has one message.
import { accessSync, constants } from "node:fs";
import { basename, dirname, join } from "node:path";
import { SCHEMA_VERSION } from "./schema.js";

/** What is wrong with a --db file, as DatabaseError.problem reports it. */
export type DatabaseProblem =
  | "in-use"
  | "not-sqlite"
  | "damaged"
  | "other-application"
  | "older-format"
  | "newer-version"
  | "no-migration"
  | "is-directory"
  | "parent-not-directory"
  | "permission-denied"
  | "read-only-file"
  | "read-only-directory"
  | "read-only-file-system"
  | "disk-full"
  | "io-error"
  | "cannot-open"
  | "unsupported-url";

/**
 * The sandbox cannot use its --db file: `file` (the absolute path) and `problem` say why; the message is one
 * line naming the file and what to do.
 *
 * @example
 * try { await createSandbox({ db: "./sandbox.db" }); }
 * catch (error) { if (error instanceof DatabaseError && error.problem === "in-use") console.error(error.message); }
 */
export class DatabaseError extends Error {
  override readonly name = "DatabaseError";
  /** The database file, as an absolute path; for a `db` URL, the URL without its user and password. */
  readonly file: string;
  /** Why it cannot be used, for code that reacts to one case (the message is for people). */
  readonly problem: DatabaseProblem;

  constructor(message: string, options: { file: string; problem: DatabaseProblem; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.file = options.file;
    this.problem = options.problem;
  }
}

const MESSAGES: Record<DatabaseProblem, (file: string, detail: string) => string> = {
  "in-use": (f) =>
    `${f} is in use by another sandbox (one file, one sandbox): stop it, or start this one with another --db file.`,
  "not-sqlite": (f) =>
    `${f} is not an SQLite database, or its header is damaged: if it is a sandbox file, restore it from a backup or delete it to start afresh; otherwise use another --db file.`,
  damaged: (f, d) =>
    `${f} is damaged (${d || "PRAGMA quick_check failed"}): restore it from a backup, or delete it to start afresh (sandbox state is test data).`,
  "other-application": (f, d) =>
    `${f} is an SQLite file of another application, not a sandbox's (${d}); it was left untouched: use another --db file.`,
  "older-format": (f) =>
    `${f} was written by an older sandbox (the sql.js format, version 0), which this sandbox cannot read. Start with a new --db file, or delete ${f} to begin again (sandbox state is test data).`,
  "newer-version": (f, d) =>
    `${f} has sandbox schema version ${d}, newer than this sandbox's ${SCHEMA_VERSION}: upgrade @exchange-kit/sandbox or use another --db file.`,
  "no-migration": (f, d) =>
    `${f} has sandbox schema version ${d}, which has no migration to ${SCHEMA_VERSION}: use another --db file.`,
  "is-directory": (f) => `${f} is a directory: give --db a file path, e.g. ${join(f, "sandbox.db")}.`,
  "parent-not-directory": (f) =>
    `${f} cannot be created: part of its parent path ${dirname(f)} is a file, not a directory; choose another --db path.`,
  "permission-denied": (f) =>
    `${f} cannot be opened: permission denied; check the permissions of the file and of its directory (the sandbox writes ${basename(f)}-wal beside it).`,
  "read-only-file": (f) =>
    `${f} is read-only: make it writable (chmod u+w, or chattr -i if it is immutable) or use another --db file.`,
  "read-only-directory": (f) =>
    `${f} cannot be written: its directory ${dirname(f)} is not writable and the sandbox creates the file and ${basename(f)}-wal there; make the directory writable or use another --db path.`,
  "read-only-file-system": (f) =>
    `${f} is on a read-only file system: remount it read-write, or use a --db path on a writable disk.`,
  "disk-full": (f) =>
    `${f} cannot be written: the disk is full; free some space (the file and its -wal beside it grow) and start again.`,
  "io-error": (f) =>
    `${f} cannot be read or written: disk I/O error; check the disk and the file system it is on (dmesg), then start again.`,
  "cannot-open": (f, d) =>
    `${f} cannot be opened${d ? ` (${d})` : ""}: check that the path names a file you may read and write, in a directory you may write.`,
  "unsupported-url": (_f, d) =>
    `--db is a ${d}:// URL, and the only database URL this sandbox takes is postgres://: give --db a PostgreSQL URL or a SQLite file path (e.g. ./sandbox.db), or leave it out to keep state in memory. Nothing was created.`,
};

/** Where a `db` option keeps the sandbox's state, or why it cannot: what `db` names, decided before anything opens. */
export type DatabaseLocation =
  | { engine: "memory" }
  | { engine: "sqlite"; path: string }
  | { engine: "postgres"; url: string }
  | { refuse: "unsupported-url"; scheme: string; shown: string };

/** Query parameters of a database URL that carry a secret (pg-connection-string reads both), in any case. */
const SECRET_PARAMETER = /^(ssl)?password$/i;

/** Whether a URL's query parameter of this name carries a secret. */
export const isSecretParameter = (name: string): boolean => SECRET_PARAMETER.test(name);

/**
 * The URL text with the value of each `password` and `sslpassword` query parameter masked as `***`; the rest of
 * the text as it was. A text, not a parsed URL: it masks a URL that does not parse too.
 *
 * @example
 * maskSecretParameters("postgres://h/db?sslmode=require&Password=s3cret"); // "postgres://h/db?sslmode=require&Password=***"
 */
export function maskSecretParameters(url: string): string {
  return url.replace(/([?&;](?:ssl)?password=)[^&#;]*/gi, "$1***");
}

/** scheme:// at the start (RFC 3986's scheme); a Windows path (C:\\x) or a file named "a:b" has no "//". */
const URL_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

/**
 * What a `db` value names. Any URL (scheme://) is refused, by its scheme, before it could be taken for a path
 * (`postgres://h/db` would otherwise create a directory named `postgres:`); `shown` is the URL without the user
 * and password before its last "@" and with its password parameters masked, so none reaches a message.
 *
 * @example
 * locateDatabase("./sandbox.db"); // { engine: "sqlite", path: "./sandbox.db" }
 * locateDatabase("postgres://u:p@h/db"); // { engine: "postgres", url: "postgres://u:p@h/db" }
 * locateDatabase("mysql://u:p@h/db"); // { refuse: "unsupported-url", scheme: "mysql", shown: "mysql://h/db" }
 */
export function locateDatabase(db: string | undefined): DatabaseLocation {
  if (db === undefined || db === "" || db === ":memory:") return { engine: "memory" };
  const scheme = URL_SCHEME.exec(db)?.[1];
  if (scheme === undefined) return { engine: "sqlite", path: db };
  if (/^postgres(ql)?$/i.test(scheme)) return { engine: "postgres", url: db };
  const rest = db.slice(scheme.length + 3);
  const shown = maskSecretParameters(`${scheme}://${rest.slice(rest.lastIndexOf("@") + 1)}`);
  return { refuse: "unsupported-url", scheme: scheme.toLowerCase(), shown };
}

/**
 * The one-line message for a problem with a --db file. `detail` fills in what the message needs: the schema
 * version, the first quick_check finding, what marks another application's file.
 *
 * @example
 * startErrorMessage("read-only-file", "/data/sandbox.db"); // "/data/sandbox.db is read-only: make it writable …"
 */
export function startErrorMessage(problem: DatabaseProblem, file: string, detail = ""): string {
  return MESSAGES[problem](file, detail.replace(/\s+/g, " ").trim());
}

/** SQLite's primary result codes that starting can meet, by number (an extended code's low byte). */
const SQLITE_CODES: Record<number, string> = {
  3: "SQLITE_PERM",
  5: "SQLITE_BUSY",
  6: "SQLITE_LOCKED",
  8: "SQLITE_READONLY",
  10: "SQLITE_IOERR",
  11: "SQLITE_CORRUPT",
  13: "SQLITE_FULL",
  14: "SQLITE_CANTOPEN",
  26: "SQLITE_NOTADB",
};

/** The failure's code: a file-system errno name (EACCES, …) or an SQLite primary code name (SQLITE_FULL, …). */
export function errorCode(error: unknown): string | undefined {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  if (typeof errcode === "number") return SQLITE_CODES[errcode & 0xff] ?? `SQLITE_${errcode & 0xff}`;
  return typeof code === "string" ? code : undefined;
}

const PROBLEM_OF_CODE: Record<string, DatabaseProblem> = {
  EISDIR: "is-directory",
  ENOTDIR: "parent-not-directory",
  EEXIST: "parent-not-directory",
  EACCES: "permission-denied",
  EPERM: "permission-denied",
  SQLITE_PERM: "permission-denied",
  EROFS: "read-only-file-system",
  ENOSPC: "disk-full",
  SQLITE_FULL: "disk-full",
  EIO: "io-error",
  SQLITE_IOERR: "io-error",
  SQLITE_READONLY: "read-only-file",
  SQLITE_CANTOPEN: "cannot-open",
  SQLITE_NOTADB: "not-sqlite",
  SQLITE_CORRUPT: "damaged",
  SQLITE_BUSY: "in-use",
  SQLITE_LOCKED: "in-use",
};

/**
 * The problem a failure's code stands for (see errorCode); "cannot-open" for a code with no better reading.
 *
 * @example
 * problemOfCode("ENOTDIR"); // "parent-not-directory"
 */
export function problemOfCode(code: string | undefined): DatabaseProblem {
  return (code !== undefined && PROBLEM_OF_CODE[code]) || "cannot-open";
}

/**
 * What access(W_OK) answered for the file and for its directory (undefined: writable) says about a write that
 * failed: SQLite reports an immutable file as "disk I/O error" and a read-only directory as "unable to open".
 *
 * @example
 * writeProblem("EROFS", "EROFS"); // "read-only-file-system"
 */
export function writeProblem(
  fileAccess: string | undefined,
  dirAccess: string | undefined,
): DatabaseProblem | undefined {
  if (fileAccess === "EROFS" || dirAccess === "EROFS") return "read-only-file-system";
  if (fileAccess === "ENOTDIR" || dirAccess === "ENOTDIR") return "parent-not-directory";
  if (fileAccess === "EACCES" || fileAccess === "EPERM") return "read-only-file";
  if (dirAccess === "EACCES" || dirAccess === "EPERM") return "read-only-directory";
  return undefined;
}

function accessCode(path: string): string | undefined {
  try {
    accessSync(path, constants.W_OK);
    return undefined;
  } catch (error) {
    return errorCode(error);
  }
}

/** Problems whose cause may really be the file or its directory not being writable: ask the file system. */
const ASK_THE_FILE_SYSTEM = new Set<DatabaseProblem>([
  "read-only-file",
  "cannot-open",
  "io-error",
  "permission-denied",
]);

/** The problem behind a failure to open or prepare `file`, and the detail its message shows. */
export function diagnose(error: unknown, file: string): { problem: DatabaseProblem; detail: string } {
  const problem = problemOfCode(errorCode(error));
  const refined = ASK_THE_FILE_SYSTEM.has(problem)
    ? writeProblem(accessCode(file), accessCode(dirname(file)))
    : undefined;
  const said = (error as { errstr?: unknown })?.errstr;
  return { problem: refined ?? problem, detail: typeof said === "string" ? said : "" };
}
