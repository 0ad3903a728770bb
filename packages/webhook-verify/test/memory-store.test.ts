import { describe, expect, it } from "vitest";
import { createDeduplicator, LeaseLostError, memoryStore } from "../src/index.js";
import { eventKey, simulateDeliveries } from "./support/simulation.js";

function clock(start = 1_772_359_200_000) {
  const time = { now: start };
  return { time, now: () => time.now };
}

const event = eventKey(1);
const handled = () => "handled";

describe("createDeduplicator with memoryStore", () => {
  it("runs the handler for the first delivery and reports later ones as duplicates", async () => {
    const dedup = createDeduplicator({ store: memoryStore() });
    expect(await dedup.run(event, handled)).toEqual({ status: "processed", result: "handled" });
    expect(await dedup.run(event, handled)).toEqual({ status: "duplicate" });
  });

  it("deduplicates on id together with event: another status of the same object runs", async () => {
    const dedup = createDeduplicator({ store: memoryStore() });
    await dedup.run(event, handled);
    expect((await dedup.run({ ...event, event: "REFUNDED" }, handled)).status).toBe("processed");
  });

  it("reports a delivery that arrives while the first is being handled as in progress", async () => {
    const dedup = createDeduplicator({ store: memoryStore() });
    let finish!: () => void;
    const first = dedup.run(event, () => new Promise<void>((resolve) => (finish = resolve)));
    await Promise.resolve();
    expect(await dedup.run(event, handled)).toEqual({ status: "in-progress" });
    finish();
    expect((await first).status).toBe("processed");
  });

  it("releases the claim when the handler throws, so the redelivery runs it again", async () => {
    const dedup = createDeduplicator({ store: memoryStore() });
    await expect(dedup.run(event, () => Promise.reject(new Error("database down")))).rejects.toThrow("database down");
    expect(await dedup.run(event, handled)).toEqual({ status: "processed", result: "handled" });
  });

  it("forgets a handled event after ttlSeconds", async () => {
    const { time, now } = clock();
    const dedup = createDeduplicator({ store: memoryStore({ now }), ttlSeconds: 60 });
    await dedup.run(event, handled);
    time.now += 59_999;
    expect((await dedup.run(event, handled)).status).toBe("duplicate");
    time.now += 1;
    expect((await dedup.run(event, handled)).status).toBe("processed");
  });

  it("frees a claim whose receiver died mid-handler after claimTtlSeconds", async () => {
    const { time, now } = clock();
    const store = memoryStore({ now });
    const dedup = createDeduplicator({ store, claimTtlSeconds: 30 });
    const claim = await dedup.claim(event); // and never completed
    expect(claim.status).toBe("claimed");
    time.now += 29_000;
    expect((await dedup.claim(event)).status).toBe("in-progress");
    time.now += 1_000;
    expect((await dedup.claim(event)).status).toBe("claimed");
  });

  it("keeps a renewed claim past its first lease, and frees it one lease after the last renewal", async () => {
    const { time, now } = clock();
    const dedup = createDeduplicator({ store: memoryStore({ now }), claimTtlSeconds: 5 });
    const claim = await dedup.claim(event);
    if (claim.status !== "claimed") throw new Error("not claimed");
    time.now += 4_000;
    expect(await claim.renew()).toBe(true);
    time.now += 4_000; // 8 s after the claim, 4 s after the renewal
    expect((await dedup.claim(event)).status).toBe("in-progress");
    time.now += 1_000;
    expect((await dedup.claim(event)).status).toBe("claimed");
    expect(await claim.renew()).toBe(false); // the lease lapsed and another delivery holds the event
    await claim.release();
  });

  it("rejects with a LeaseLostError, and marks the event done, when another delivery claimed it while the handler ran past its lease", async () => {
    const { time, now } = clock();
    const store = memoryStore({ now });
    const dedup = createDeduplicator({ store, claimTtlSeconds: 1 });
    const other = createDeduplicator({ store, claimTtlSeconds: 1 });
    const outcome = dedup.run(event, async () => {
      time.now += 1_000; // a handler that blocked: no renewal ran, and the lease ran out
      expect((await other.claim(event)).status).toBe("claimed");
    });
    const error = await outcome.then(
      () => expect.unreachable("the lost lease went unreported"),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LeaseLostError);
    expect(error).toMatchObject({ key: `${event.id}:${event.event}:${event.timestamp}`, leaseMs: 1_000 });
    expect((error as Error).message).toMatch(/may have run twice/);
    expect((await other.claim(event)).status).toBe("duplicate");
  });

  it("does not report a lost lease for a handler that ran within it", async () => {
    const { time, now } = clock();
    const dedup = createDeduplicator({ store: memoryStore({ now }), claimTtlSeconds: 1 });
    const outcome = await dedup.run(event, () => {
      time.now += 999;
      return "handled";
    });
    expect(outcome).toEqual({ status: "processed", result: "handled" });
  });

  it("refuses a claimTtlSeconds outside 0.1 to 3600 seconds with a TypeError", () => {
    for (const claimTtlSeconds of [0, 0.05, 3601, Number.POSITIVE_INFINITY]) {
      expect(() => createDeduplicator({ claimTtlSeconds }), String(claimTtlSeconds)).toThrow(
        /claimTtlSeconds must be from 0.1 to 3600 seconds/,
      );
    }
    expect(() => createDeduplicator({ claimTtlSeconds: 0.1 })).not.toThrow();
    expect(() => createDeduplicator({ claimTtlSeconds: 3600 })).not.toThrow();
  });

  it("does not let a late release free a newer claim of the same event", async () => {
    const { time, now } = clock();
    const dedup = createDeduplicator({ store: memoryStore({ now }), claimTtlSeconds: 1 });
    const stale = await dedup.claim(event);
    time.now += 1_000;
    const current = await dedup.claim(event);
    expect(current.status).toBe("claimed");
    if (stale.status === "claimed") await stale.release();
    expect((await dedup.claim(event)).status).toBe("in-progress");
  });

  it("keeps at most maxEntries, evicting the least recently seen first", async () => {
    const dedup = createDeduplicator({ store: memoryStore({ maxEntries: 3 }) });
    for (const n of [1, 2, 3]) await dedup.run(eventKey(n), handled);
    expect((await dedup.run(eventKey(1), handled)).status).toBe("duplicate"); // 1 is now the most recent
    await dedup.run(eventKey(4), handled); // evicts 2
    expect((await dedup.run(eventKey(1), handled)).status).toBe("duplicate");
    expect((await dedup.run(eventKey(3), handled)).status).toBe("duplicate");
    expect((await dedup.run(eventKey(2), handled)).status).toBe("processed");
  });

  it("refuses a bad maxEntries or ttl with a TypeError", () => {
    expect(() => memoryStore({ maxEntries: 0 })).toThrow(TypeError);
    expect(() => createDeduplicator({ ttlSeconds: 0 })).toThrow(TypeError);
    expect(() => createDeduplicator({ claimTtlSeconds: Number.NaN })).toThrow(TypeError);
  });

  it("runs each of 200 events exactly once over 1,000 concurrent deliveries to two receivers, retrying failed handlers", async () => {
    const store = memoryStore();
    const failOnce = new Set([3, 50, 77, 120, 199]);
    const report = await simulateDeliveries({
      receivers: [createDeduplicator({ store }), createDeduplicator({ store })],
      events: 200,
      deliveriesPerEvent: 5,
      failOnce,
      concurrency: 64,
      seed: 7,
    });
    expect(report.successes.every((s) => s === 1)).toBe(true);
    expect(report.runs.filter((r, n) => r !== (failOnce.has(n) ? 2 : 1))).toEqual([]);
    expect(report.processed).toBe(200);
    expect(report.failures).toBe(failOnce.size);
    expect(report.deliveries).toBe(1000 + report.retries);
    expect(report.inProgress).toBeGreaterThan(0); // the deliveries really overlapped
  });
});
