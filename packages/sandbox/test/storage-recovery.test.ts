import { writeFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { TimerWork } from "../src/schedule/timer-work.js";
import { AutoProgress } from "../src/domain/progress.js";
import type { Logger } from "../src/logger.js";
import { backoffDelay, isOutOfStorage, StorageRecovery } from "../src/store/storage-recovery.js";

// SQLite's own "database or disk is full": PRAGMA max_page_count caps the database, so SQLite answers
// SQLITE_FULL exactly as it does on a full disk, and raising the cap is the space coming back. (The sandbox
// end to end on a real full disk is in full-disk.test.ts, which needs root for its tmpfs.)
function cappedDatabase() {
  const db = new DatabaseSync(":memory:");
  db.exec("CREATE TABLE steps (n INTEGER, filler BLOB)");
  db.exec("INSERT INTO steps VALUES (0, randomblob(1000))");
  const pages = () => Number((db.prepare("PRAGMA page_count").get() as { page_count: number }).page_count);
  const cap = (n: number) => db.prepare(`PRAGMA max_page_count = ${n}`).get();
  return {
    db,
    fill: () => cap(pages()),
    free: () => cap(1_000_000),
    /** One transaction, as a scheduled step is: its row, larger than a page so it always needs new pages, or nothing. */
    step: (n: number) => {
      db.exec("BEGIN");
      try {
        db.prepare("INSERT INTO steps VALUES (?, randomblob(8000))").run(n);
        db.exec("COMMIT");
      } catch (error) {
        if (db.isTransaction) db.exec("ROLLBACK");
        throw error;
      }
    },
    count: (n: number) => Number((db.prepare("SELECT COUNT(*) AS c FROM steps WHERE n = ?").get(n) as { c: number }).c),
  };
}

function sqliteFull(): unknown {
  const capped = cappedDatabase();
  capped.fill();
  try {
    capped.step(1);
  } catch (error) {
    return error;
  }
  throw new Error("SQLite did not answer SQLITE_FULL");
}

/** A logger that keeps its lines and lets a test wait for one. */
function recordingLogger() {
  const lines: Array<{ level: string; message: string }> = [];
  const waiters: Array<{ test: RegExp; resolve: () => void }> = [];
  const log = (level: string) => (message: string) => {
    lines.push({ level, message });
    for (const waiter of waiters.filter((w) => w.test.test(message))) waiter.resolve();
  };
  const logger: Logger = { enabled: true, info: log("info"), warn: log("warn"), error: log("error") };
  const next = (test: RegExp) =>
    lines.some((l) => test.test(l.message))
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiters.push({ test, resolve }));
  return { logger, lines, next };
}

describe("which failures more storage cures", () => {
  it("counts SQLite's SQLITE_FULL as out of storage", () => {
    expect(isOutOfStorage(sqliteFull())).toBe(true);
  });

  it("counts the file system's ENOSPC (a write to /dev/full) as out of storage", () => {
    let caught: unknown;
    try {
      writeFileSync("/dev/full", "x");
    } catch (error) {
      caught = error;
    }
    expect((caught as { code?: string }).code).toBe("ENOSPC");
    expect(isOutOfStorage(caught)).toBe(true);
  });

  it("counts an SQLITE_IOERR of any extended code as out of storage", () => {
    expect(isOutOfStorage({ code: "ERR_SQLITE_ERROR", errcode: 10 | (4 << 8) })).toBe(true); // SQLITE_IOERR_WRITE
  });

  it("does not count a constraint failure or a plain error", () => {
    const db = new DatabaseSync(":memory:");
    db.exec("CREATE TABLE u (id TEXT PRIMARY KEY); INSERT INTO u VALUES ('a')");
    let constraint: unknown;
    try {
      db.exec("INSERT INTO u VALUES ('a')");
    } catch (error) {
      constraint = error;
    }
    expect(isOutOfStorage(constraint)).toBe(false);
    expect(isOutOfStorage(new Error("boom"))).toBe(false);
  });
});

describe("the wait before a retry", () => {
  const policy = { initialDelayMs: 250, factor: 2, maxDelayMs: 5000 };
  it.each([
    [1, 250],
    [2, 500],
    [3, 1000],
    [5, 4000],
    [6, 5000],
    [40, 5000],
  ])("retry %i waits %i ms", (attempt, delay) => {
    expect(backoffDelay(policy, attempt)).toBe(delay);
  });
});

describe("a streak of storage failures", () => {
  it("is logged once when it starts and once when storage works again", () => {
    const { logger, lines } = recordingLogger();
    const recovery = new StorageRecovery(async () => {}, logger, { initialDelayMs: 1, factor: 2, maxDelayMs: 4 });
    const full = sqliteFull();
    expect([1, 2, 3, 4].map((n) => recovery.failed("automatic step of customer c1", full, n))).toEqual([1, 2, 4, 4]);
    recovery.failed("automatic step of customer c2", full, 1);
    recovery.succeeded();
    recovery.succeeded();
    expect(lines.map((l) => l.level)).toEqual(["error", "info"]);
    expect(lines[0]!.message).toMatch(/^automatic step of customer c1 failed: database or disk is full/);
    expect(lines[1]!.message).toMatch(/storage works again.*\(5 failed attempt\(s\)\)/);
  });

  it("answers nothing for a failure that is not about storage, and logs nothing", () => {
    const { logger, lines } = recordingLogger();
    const recovery = new StorageRecovery(async () => {}, logger);
    expect(recovery.failed("automatic step of bank b1", new Error("bug"), 1)).toBeUndefined();
    expect(lines).toEqual([]);
  });

  it("tries a checkpoint before a retry, and a checkpoint that fails too stops nothing", async () => {
    let checkpoints = 0;
    const recovery = new StorageRecovery(() => {
      checkpoints++;
      throw sqliteFull();
    }, recordingLogger().logger);
    await recovery.beforeRetry();
    expect(checkpoints).toBe(1);
  });
});

describe("an automatic step that fails on a full database", () => {
  it("is retried with backoff until the space comes back, then commits once", async () => {
    const capped = cappedDatabase();
    const { logger, lines, next } = recordingLogger();
    const checkpoints: number[] = [];
    const recovery = new StorageRecovery(async () => void checkpoints.push(Date.now()), logger, {
      initialDelayMs: 1,
      factor: 2,
      maxDelayMs: 8,
    });
    const unexpected: unknown[] = [];
    let tries = 0;
    const work = new TimerWork((callback) => callback());
    const progress = new AutoProgress(
      work,
      async () => 0,
      async () => {
        tries++;
        capped.step(7);
      },
      (error) => unexpected.push(error),
      recovery,
    );
    capped.fill();
    await progress.schedule("customer", "c7", "org-a", 1);
    await next(/automatic step of customer c7 failed: database or disk is full/);
    // Let it fail a few more times before the space comes back: the streak is still logged once.
    const failedSoFar = tries;
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (tries >= failedSoFar + 3) resolve(clearInterval(poll));
      }, 1);
    });
    expect(capped.count(7)).toBe(0);
    capped.free();
    await next(/^storage works again/);
    await work.close();
    expect(capped.count(7)).toBe(1);
    expect(unexpected).toEqual([]);
    expect(lines.filter((l) => l.level === "error")).toHaveLength(1);
    expect(checkpoints.length).toBe(tries - 1);
  });

  it("is handed to onError, not retried, when it fails for another reason", async () => {
    const { logger, lines } = recordingLogger();
    const recovery = new StorageRecovery(async () => {}, logger, { initialDelayMs: 1, factor: 2, maxDelayMs: 8 });
    let tries = 0;
    const failed = new Promise<unknown>((resolve) => {
      const progress = new AutoProgress(
        new TimerWork((callback) => callback()),
        async () => 0,
        async () => {
          tries++;
          throw new Error("bug in a transition");
        },
        resolve,
        recovery,
      );
      void progress.schedule("payout", "p1", "org-a", 1);
    });
    expect(((await failed) as Error).message).toBe("bug in a transition");
    expect(tries).toBe(1);
    expect(lines).toEqual([]);
  });
});
