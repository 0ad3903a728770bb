import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSandbox, DatabaseError } from "../src/index.js";
import {
  type DatabaseProblem,
  errorCode,
  problemOfCode,
  startErrorMessage,
  writeProblem,
} from "../src/store/start-errors.js";
import { ORG_A } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "sandbox-start-errors-"));
const cleanups: Array<() => void> = [];
afterAll(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
  rmSync(dir, { recursive: true, force: true });
});
const options = { organizations: [ORG_A], autoProgressMs: false as const };

describe("the problem a start failure's code stands for", () => {
  const table: Array<[code: string | undefined, problem: DatabaseProblem]> = [
    ["EISDIR", "is-directory"],
    ["ENOTDIR", "parent-not-directory"],
    ["EEXIST", "parent-not-directory"],
    ["EACCES", "permission-denied"],
    ["EPERM", "permission-denied"],
    ["SQLITE_PERM", "permission-denied"],
    ["EROFS", "read-only-file-system"],
    ["ENOSPC", "disk-full"],
    ["SQLITE_FULL", "disk-full"],
    ["EIO", "io-error"],
    ["SQLITE_IOERR", "io-error"],
    ["SQLITE_READONLY", "read-only-file"],
    ["SQLITE_CANTOPEN", "cannot-open"],
    ["SQLITE_NOTADB", "not-sqlite"],
    ["SQLITE_CORRUPT", "damaged"],
    ["SQLITE_BUSY", "in-use"],
    ["SQLITE_LOCKED", "in-use"],
    ["ESOMETHINGNEW", "cannot-open"],
    [undefined, "cannot-open"],
  ];
  it.each(table)("%s is %s", (code, problem) => {
    expect(problemOfCode(code)).toBe(problem);
  });

  it("reads SQLite's extended result codes by their primary code, and file-system errors by their errno name", () => {
    expect(errorCode({ code: "ERR_SQLITE_ERROR", errcode: 3850 })).toBe("SQLITE_IOERR"); // SQLITE_IOERR_LOCK
    expect(errorCode({ code: "ERR_SQLITE_ERROR", errcode: 14 })).toBe("SQLITE_CANTOPEN");
    expect(errorCode({ code: "ERR_SQLITE_ERROR", errcode: 1 })).toBe("SQLITE_1");
    expect(errorCode(Object.assign(new Error("x"), { code: "ENOTDIR" }))).toBe("ENOTDIR");
    expect(errorCode("not an error")).toBeUndefined();
  });
});

describe("what access(W_OK) on the file and its directory says about a failed write", () => {
  const table: Array<[file: string | undefined, directory: string | undefined, problem: DatabaseProblem | undefined]> =
    [
      ["EROFS", "EROFS", "read-only-file-system"],
      ["ENOENT", "EROFS", "read-only-file-system"],
      ["ENOTDIR", undefined, "parent-not-directory"],
      ["EACCES", undefined, "read-only-file"],
      ["EPERM", undefined, "read-only-file"], // chattr +i, even for root
      ["EPERM", "EPERM", "read-only-file"],
      [undefined, "EACCES", "read-only-directory"],
      ["ENOENT", "EPERM", "read-only-directory"],
      [undefined, undefined, undefined],
      ["ENOENT", undefined, undefined],
    ];
  it.each(table)("file %s, directory %s: %s", (file, directory, problem) => {
    expect(writeProblem(file, directory)).toBe(problem);
  });
});

describe("the one-line message of each problem", () => {
  const file = "/data/exchange/sandbox.db";
  const table: Array<[DatabaseProblem, string, RegExp]> = [
    ["in-use", "", /in use by another sandbox .*another --db file/],
    ["not-sqlite", "", /not an SQLite database, or its header is damaged.*restore it from a backup or delete it/],
    ["damaged", "PRAGMA quick_check: Tree 3 page 3", /is damaged \(PRAGMA quick_check: Tree 3 page 3\): restore it/],
    ["other-application", "application_id 0x12345678", /another application.*0x12345678.*left untouched/],
    ["older-format", "", /older sandbox \(the sql\.js format/],
    ["newer-version", "7", /schema version 7, newer than this sandbox's 2: upgrade @exchange-kit\/sandbox/],
    ["no-migration", "0", /schema version 0, which has no migration to 2/],
    ["is-directory", "", /is a directory: give --db a file path, e\.g\. \/data\/exchange\/sandbox\.db\/sandbox\.db/],
    ["parent-not-directory", "", /parent path \/data\/exchange is a file, not a directory/],
    ["permission-denied", "", /permission denied; check the permissions of the file and of its directory/],
    ["read-only-file", "", /is read-only: make it writable \(chmod u\+w, or chattr -i/],
    ["read-only-directory", "", /its directory \/data\/exchange is not writable.*sandbox\.db-wal/],
    ["read-only-file-system", "", /read-only file system: remount it read-write/],
    ["disk-full", "", /the disk is full; free some space/],
    ["io-error", "", /disk I\/O error; check the disk/],
    ["cannot-open", "unable to open database file", /cannot be opened \(unable to open database file\): check/],
  ];
  it.each(table)("%s names the file and says what to do, in one line", (problem, detail, expected) => {
    const message = startErrorMessage(problem, file, detail);
    expect(message.startsWith(file)).toBe(true);
    expect(message).toMatch(expected);
    expect(message).not.toContain("\n");
  });

  it("keeps a detail that spans lines on the one line", () => {
    expect(startErrorMessage("damaged", file, "row 1 missing\nrow 2 missing")).toContain(
      "(row 1 missing row 2 missing)",
    );
  });
});

async function refusal(file: string): Promise<DatabaseError> {
  const error = await createSandbox({ ...options, db: file }).then(
    async (sandbox) => {
      await sandbox.close();
      throw new Error(`the sandbox started on ${file}`);
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DatabaseError);
  expect((error as DatabaseError).file).toBe(file);
  expect((error as Error).message.startsWith(file)).toBe(true);
  return error as DatabaseError;
}

/** Runs a command; answers why it cannot run here (not root, no such tool, a file system without the feature). */
function attempt(command: string, args: string[]): string | undefined {
  try {
    execFileSync(command, args, { stdio: "pipe" });
    return undefined;
  } catch (error) {
    return `${command} ${args.join(" ")} failed: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`;
  }
}

describe("starting on a path that cannot be used (real files)", () => {
  it("refuses a path that is a directory", async () => {
    const path = join(dir, "a-directory.db");
    mkdirSync(path);
    const error = await refusal(path);
    expect(error.problem).toBe("is-directory");
  });

  it("refuses a path whose parent is a file", async () => {
    const parent = join(dir, "plain-file");
    writeFileSync(parent, "not a directory");
    expect((await refusal(join(parent, "sandbox.db"))).problem).toBe("parent-not-directory");
    expect((await refusal(join(parent, "deeper", "sandbox.db"))).problem).toBe("parent-not-directory");
  });

  it("creates a missing parent directory and starts", async () => {
    const file = join(dir, "new", "nested", "sandbox.db");
    const sandbox = await createSandbox({ ...options, db: file });
    await sandbox.close();
    expect(existsSync(file)).toBe(true);
  });

  it("refuses a read-only (immutable) file, where SQLite itself only says 'disk I/O error'", async (ctx) => {
    const file = join(dir, "immutable.db");
    await (await createSandbox({ ...options, db: file })).close();
    const cannot = attempt("chattr", ["+i", file]);
    if (cannot) ctx.skip(`needs chattr +i (root, and a file system with the immutable flag): ${cannot}`);
    cleanups.push(() => attempt("chattr", ["-i", file]));
    expect((await refusal(file)).problem).toBe("read-only-file");
  });

  it("refuses a new file in a directory that cannot be written", async (ctx) => {
    const locked = join(dir, "locked-directory");
    mkdirSync(locked);
    const cannot = attempt("chattr", ["+i", locked]);
    if (cannot) ctx.skip(`needs chattr +i (root, and a file system with the immutable flag): ${cannot}`);
    cleanups.push(() => attempt("chattr", ["-i", locked]));
    expect((await refusal(join(locked, "sandbox.db"))).problem).toBe("read-only-directory");
  });

  it("refuses a file on a read-only file system", async (ctx) => {
    const mount = join(dir, "read-only-mount");
    mkdirSync(mount);
    const cannot = attempt("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mount]);
    if (cannot) ctx.skip(`needs root to mount a tmpfs: ${cannot}`);
    cleanups.push(() => attempt("umount", [mount]));
    const file = join(mount, "sandbox.db");
    await (await createSandbox({ ...options, db: file })).close();
    const remount = attempt("mount", ["-o", "remount,ro", mount]);
    if (remount) ctx.skip(`cannot remount the tmpfs read-only: ${remount}`);
    expect((await refusal(file)).problem).toBe("read-only-file-system");
  });
});
