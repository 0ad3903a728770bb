import { afterEach, describe, expect, it } from "vitest";
import { AutoProgress, type ProgressKind } from "../src/domain/progress.js";

const running: AutoProgress[] = [];
afterEach(() => {
  while (running.length > 0) running.pop()!.close();
});

/** An AutoProgress over per-organization delays that records each step it takes; every record has `steps` steps. */
function progressWith(delays: Record<string, number | false>, steps = 1) {
  const taken: string[] = [];
  const left = new Map<string, number>();
  const progress = new AutoProgress(
    (org) => delays[org] ?? false,
    (kind: ProgressKind, id: string) => {
      taken.push(`${kind}:${id}`);
      const remaining = (left.get(id) ?? steps) - 1;
      left.set(id, remaining);
      return remaining > 0;
    },
  );
  running.push(progress);
  return { progress, taken };
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `taken` has `n` entries (timers under load may run late; a missing step fails after 5 s). */
async function untilTaken(taken: string[], n: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while (taken.length < n && Date.now() < deadline) await settle(5);
}

describe("automatic progress per organization", () => {
  it("waits each record's organization's delay", async () => {
    const { progress, taken } = progressWith({ a: 0, b: 60_000 });
    progress.schedule("customer", "b1", "b");
    progress.schedule("customer", "a1", "a");
    await untilTaken(taken, 1);
    await settle(20);
    expect(taken).toEqual(["customer:a1"]);
  });

  it("schedules nothing for an organization whose progress is off", async () => {
    const { progress, taken } = progressWith({ a: false, b: 0 });
    progress.schedule("bank", "a1", "a");
    progress.schedule("bank", "b1", "b");
    await untilTaken(taken, 1);
    await settle(20);
    expect(taken).toEqual(["bank:b1"]);
  });

  it("drops one organization's pending steps and keeps the others'", async () => {
    const { progress, taken } = progressWith({ a: 5, b: 5 });
    progress.schedule("payin", "a1", "a");
    progress.schedule("payout", "a2", "a");
    progress.schedule("payin", "b1", "b");
    progress.cancelOrganization("a");
    await untilTaken(taken, 1);
    // a1 and a2 were due with b1.
    await settle(20);
    expect(taken).toEqual(["payin:b1"]);
  });

  it("reads the organization's delay again before each further step", async () => {
    const delays: Record<string, number | false> = { a: 0 };
    const taken: string[] = [];
    const progress = new AutoProgress(
      (org) => delays[org] ?? false,
      (kind, id) => {
        taken.push(`${kind}:${id}`);
        // The organization switches progress off while its record still has steps ahead.
        delays.a = false;
        return true;
      },
    );
    running.push(progress);
    progress.schedule("edd", "a1", "a");
    await untilTaken(taken, 1);
    await settle(20);
    expect(taken).toEqual(["edd:a1"]);
  });

  it("takes every remaining step of a record in turn", async () => {
    const { progress, taken } = progressWith({ a: 0 }, 3);
    progress.schedule("edd", "a1", "a");
    await untilTaken(taken, 3);
    expect(taken).toEqual(["edd:a1", "edd:a1", "edd:a1"]);
  });
});
