import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../src/index.js";
import { Api, createCustomer, kycBody, ORG_A, startReceiver, waitFor } from "./helpers.js";

// A REAL full disk: a 5 MB tmpfs mounted for this file (root only), filled with a filler file until the kernel
// answers ENOSPC, so SQLite's own write to its WAL fails with SQLITE_FULL. Without the right to mount, the test
// is skipped and says so; storage-recovery.test.ts covers the same retry with SQLite's PRAGMA max_page_count.
const dir = mkdtempSync(join(tmpdir(), "sandbox-full-disk-"));
const disk = join(dir, "disk");
mkdirSync(disk);
const mounted = mountTmpfs(disk);
const sandboxes: Sandbox[] = [];
afterAll(async () => {
  // Every sandbox on the tmpfs is closed first: an open file keeps the mount busy.
  for (const sandbox of sandboxes) await sandbox.close();
  if (mounted === undefined) execFileSync("umount", [disk]);
  rmSync(dir, { recursive: true, force: true });
});

/** Mounts a 5 MB tmpfs; answers why it could not, or undefined once mounted. */
function mountTmpfs(path: string): string | undefined {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=5m", "tmpfs", path], { stdio: "pipe" });
    return undefined;
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error).trim();
  }
}

/** Writes a filler file until the disk has no page left. */
function fill(path: string): void {
  const fd = openSync(path, "w");
  try {
    for (const size of [1 << 16, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size, 0x5a);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if ((error as { code?: string }).code !== "ENOSPC") throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** Log lines of a sandbox, and a way to wait for one (no sleeping: the line is the event). */
function logLines() {
  const lines: string[] = [];
  const waiters: Array<[RegExp, () => void]> = [];
  const add = (line: string) => {
    lines.push(line);
    for (const [test, resolve] of waiters) if (test.test(line)) resolve();
  };
  return {
    lines,
    logger: { info: add, warn: add, error: add },
    next: (test: RegExp) =>
      lines.some((line) => test.test(line))
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push([test, resolve])),
  };
}

const base = { organizations: [ORG_A] };

async function opened(...args: Parameters<typeof createSandbox>): Promise<Sandbox> {
  const sandbox = await createSandbox(...args);
  sandboxes.push(sandbox);
  return sandbox;
}

describe("an automatic step on a full disk", () => {
  it("is retried once space is freed, so the customer's KYC completes without a restart", async (ctx) => {
    if (mounted !== undefined) ctx.skip(`needs root to mount a 5 MB tmpfs as a real full disk (${mounted})`);
    const file = join(disk, "sandbox.db");
    const filler = join(disk, "filler");

    // KYC submitted while nothing moves on its own: the steps wait in the file.
    const first = await opened({ ...base, db: file, autoProgressMs: false });
    const api = new Api(first);
    const verified = await createCustomer(api);
    const failed = await createCustomer(api, { full_name: "Asha FAIL_KYC Rao" });
    await api.ok("POST", "/cms/api/v1/kyc/add-kyc-data", kycBody(verified.id));
    await api.ok("POST", "/cms/api/v1/kyc/add-kyc-data", kycBody(failed.id));
    await first.close();

    fill(filler);
    // Starting writes nothing else to an up-to-date file, so the sandbox starts on the full disk; its steps run at once.
    const log = logLines();
    const sandbox = await opened(
      { ...base, db: file, autoProgressMs: 0, logger: log.logger },
      { storageBackoff: { initialDelayMs: 5, factor: 2, maxDelayMs: 50 } },
    );
    const again = new Api(sandbox);
    // Its dashboard links cannot be written: it starts without them and says so.
    expect(sandbox.dashboard).toEqual([]);
    expect(log.lines).toContainEqual(
      expect.stringMatching(/^no dashboard links this start \(database or disk is full\)/),
    );
    await log.next(/^automatic step of customer \S+ failed: database or disk is full/);
    expect((await again.ok("GET", `/cms/api/v1/customer/${verified.id}`)).status).toBe("UNVERIFIED");
    expect((await again.ok("GET", `/cms/api/v1/customer/${failed.id}`)).status).toBe("UNVERIFIED");
    // A request has a client to retry it: it answers 500 and leaves nothing behind.
    const refused = await again.post("/cms/api/v1/customer/create", {
      client_reference_id: "while-full",
      full_name: "Asha Rao",
      alpha_3_country_code: "IND",
    });
    expect(refused.status).toBe(500);

    rmSync(filler);
    await log.next(/^storage works again/);
    // The first retry to commit ends the streak; the other customer's step commits on its own next retry.
    const outcomes = await waitFor(async () => {
      const events = (await sandbox.events()).map((e) => `${e.body.id} ${e.body.event}`);
      return events.length === 2 && events;
    }, "both KYC events");
    expect(outcomes.sort()).toEqual([`${failed.id} FAILED`, `${verified.id} VERIFIED`].sort());
    expect((await again.ok("GET", `/cms/api/v1/customer/${verified.id}`)).status).toBe("VERIFIED");
    expect(await again.ok("GET", `/cms/api/v1/customer/${failed.id}`)).toMatchObject({
      status: "FAILED",
      failure_reason: "KYC_FAILED",
    });
    expect(log.lines.filter((line) => /failed: database or disk is full/.test(line))).toHaveLength(1);
    expect((await again.ok("GET", "/cms/api/v1/customer/list")).count).toBe(2);
  });

  it("records a webhook delivery whose bookkeeping failed on a full disk once space is freed", async (ctx) => {
    if (mounted !== undefined) ctx.skip(`needs root to mount a 5 MB tmpfs as a real full disk (${mounted})`);
    const file = join(disk, "deliveries.db");
    const filler = join(disk, "filler-deliveries");
    // The receiver fills the disk before it answers: the delivery succeeds, and then recording it cannot.
    const receiver = await startReceiver(() => {
      fill(filler);
      return 200;
    });
    const log = logLines();
    const sandbox = await opened(
      { ...base, db: file, autoProgressMs: 0, logger: log.logger },
      { storageBackoff: { initialDelayMs: 5, factor: 2, maxDelayMs: 50 } },
    );
    const api = new Api(sandbox);
    await api.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
    const customer = await createCustomer(api);
    await api.ok("POST", "/cms/api/v1/kyc/add-kyc-data", kycBody(customer.id));

    await log.next(/^recording webhook delivery \S+ failed: database or disk is full/);
    expect(receiver.deliveries).toHaveLength(1);
    expect((await sandbox.events())[0]!.deliveries[0]!.state).toBe("pending");

    rmSync(filler);
    await log.next(/^storage works again/);
    const [event] = await sandbox.events();
    expect(event!.body.event).toBe("VERIFIED");
    expect(event!.deliveries).toMatchObject([{ state: "delivered", attempts: [{ attempt: 1, status_code: 200 }] }]);
    expect(receiver.deliveries).toHaveLength(1);
  });
});
