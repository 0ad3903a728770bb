import { afterEach, describe, expect, it } from "vitest";
import { AutoProgress, type ProgressKind } from "../src/domain/progress.js";
import { TimerWork } from "../src/schedule/timer-work.js";

const running: TimerWork[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()!.close();
});

/**
 * An AutoProgress on timers over per-organization delays that records each step it takes; every record has
 * `steps` steps, and a step schedules the next one as the domain's does.
 */
function progressWith(delays: Record<string, number | false>, steps = 1) {
  const taken: string[] = [];
  const work = new TimerWork((callback) => callback());
  running.push(work);
  const progress: AutoProgress = new AutoProgress(
    work,
    async (org) => delays[org] ?? false,
    async (kind: ProgressKind, id: string, remaining: number) => {
      taken.push(`${kind}:${id}`);
      if (remaining > 1) await progress.schedule(kind, id, id.startsWith("b") ? "b" : "a", remaining - 1);
    },
  );
  return { progress, taken, work, steps };
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
    await progress.schedule("customer", "b1", "b", 1);
    await progress.schedule("customer", "a1", "a", 1);
    await untilTaken(taken, 1);
    await settle(20);
    expect(taken).toEqual(["customer:a1"]);
  });

  it("schedules nothing for an organization whose progress is off", async () => {
    const { progress, taken } = progressWith({ a: false, b: 0 });
    await progress.schedule("bank", "a1", "a", 1);
    await progress.schedule("bank", "b1", "b", 1);
    await untilTaken(taken, 1);
    await settle(20);
    expect(taken).toEqual(["bank:b1"]);
  });

  it("takes no step that comes due after its organization switched progress off, and keeps the others'", async () => {
    const delays: Record<string, number | false> = { a: 5, b: 5 };
    const { progress, taken } = progressWith(delays);
    await progress.schedule("payin", "a1", "a", 1);
    await progress.schedule("payout", "a2", "a", 1);
    await progress.schedule("payin", "b1", "b", 1);
    delays.a = false;
    await untilTaken(taken, 1);
    // a1 and a2 were due with b1.
    await settle(20);
    expect(taken).toEqual(["payin:b1"]);
  });

  it("reads the organization's delay again before each further step", async () => {
    const delays: Record<string, number | false> = { a: 0 };
    const taken: string[] = [];
    const work = new TimerWork((callback) => callback());
    running.push(work);
    const progress: AutoProgress = new AutoProgress(
      work,
      async (org) => delays[org] ?? false,
      async (kind, id) => {
        taken.push(`${kind}:${id}`);
        // The organization switches progress off while its record still has steps ahead.
        delays.a = false;
        await progress.schedule(kind, id, "a", 1);
      },
    );
    await progress.schedule("edd", "a1", "a", 2);
    await untilTaken(taken, 1);
    await settle(20);
    expect(taken).toEqual(["edd:a1"]);
  });

  it("takes every remaining step of a record in turn", async () => {
    const { progress, taken } = progressWith({ a: 0 });
    await progress.schedule("edd", "a1", "a", 3);
    await untilTaken(taken, 3);
    expect(taken).toEqual(["edd:a1", "edd:a1", "edd:a1"]);
  });

  it("keeps one pending step per record: scheduling it again replaces the first", async () => {
    const { progress, taken } = progressWith({ a: 10 });
    await progress.schedule("customer", "a1", "a", 1);
    await progress.schedule("customer", "a1", "a", 1);
    await untilTaken(taken, 1);
    await settle(30);
    expect(taken).toEqual(["customer:a1"]);
  });

  it("drops a record's pending step when it is cancelled", async () => {
    const { progress, taken, work } = progressWith({ a: 5 });
    await progress.schedule("customer", "a1", "a", 1);
    await progress.cancel("customer", "a1");
    await work.idle("progress-step");
    await settle(20);
    expect(taken).toEqual([]);
  });
});
