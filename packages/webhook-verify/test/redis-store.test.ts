import { Redis } from "ioredis";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ClaimedDelivery, createDeduplicator, type Deduplicator } from "../src/index.js";
import { redisStore } from "../src/redis.js";
import { redisServerAvailable, type RedisServer, startRedisServer } from "./support/servers.js";
import { eventKey, simulateDeliveries } from "./support/simulation.js";
import { until } from "./support/wait.js";

const handled = () => "handled";
/** eventKey(1)'s dedup key under the default strategy, id:event:timestamp; the store keeps it after its prefix. */
const EVENT_1_KEY = `${eventKey(1).id}:${eventKey(1).event}:${eventKey(1).timestamp}`;

describe.runIf(redisServerAvailable())("redisStore on a real redis-server", () => {
  let server: RedisServer;
  let nodeRedis: ReturnType<typeof createClient>;
  let ioredis: Redis;

  beforeAll(async () => {
    server = await startRedisServer();
    nodeRedis = createClient({ url: server.url });
    await nodeRedis.connect();
    ioredis = new Redis(server.url, { lazyConnect: true });
    await ioredis.connect();
  });

  afterAll(async () => {
    // Teardown only: a connection the server already closed (a busy CI machine) rejects QUIT with "Connection is
    // closed", which says nothing about the stores; drop it instead, and always stop the server.
    await nodeRedis?.close().catch(() => nodeRedis.destroy());
    await ioredis?.quit().catch(() => ioredis.disconnect());
    await server?.stop();
  });

  // Each test uses its own key prefix, so tests never see each other's keys.
  let prefixes = 0;
  const clients = () => ({ "node-redis": nodeRedis, ioredis }) as const;
  const dedupWith = (kind: "node-redis" | "ioredis", options: { ttlSeconds?: number; claimTtlSeconds?: number } = {}) =>
    createDeduplicator({
      store: redisStore(clients()[kind], { prefix: `test${++prefixes}:`, persistence: "skip" }),
      ...options,
    });

  describe.each(["node-redis", "ioredis"] as const)("with %s", (kind) => {
    it("runs the first delivery and reports later ones as duplicates", async () => {
      const dedup = dedupWith(kind);
      expect(await dedup.run(eventKey(1), handled)).toEqual({ status: "processed", result: "handled" });
      expect(await dedup.run(eventKey(1), handled)).toEqual({ status: "duplicate" });
    });

    it("reports a delivery that arrives while the first is being handled as in progress", async () => {
      const dedup = dedupWith(kind);
      const claim = await dedup.claim(eventKey(1));
      expect(claim.status).toBe("claimed");
      expect((await dedup.claim(eventKey(1))).status).toBe("in-progress");
    });

    it("releases the claim when the handler throws, so the redelivery runs it again", async () => {
      const dedup = dedupWith(kind);
      await expect(dedup.run(eventKey(1), () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
      expect((await dedup.run(eventKey(1), handled)).status).toBe("processed");
    });

    it("writes the claim with the claim TTL and the done mark with the event TTL", async () => {
      const prefix = `ttl-${kind}:`;
      const dedup = createDeduplicator({
        store: redisStore(clients()[kind], { prefix, persistence: "skip" }),
        ttlSeconds: 3600,
        claimTtlSeconds: 60,
      });
      const key = `${prefix}${EVENT_1_KEY}`;
      const claim = await dedup.claim(eventKey(1));
      expect(await ioredis.get(key)).toMatch(/^processing:/);
      expect(await ioredis.pttl(key)).toBeGreaterThan(59_000);
      if (claim.status === "claimed") await claim.complete();
      expect(await ioredis.get(key)).toBe("done");
      expect(await ioredis.pttl(key)).toBeGreaterThan(3_599_000);
    });

    // A dead receiver: its own connection closes mid-handler, so nothing renews its lease. While it lived,
    // another receiver found the event in progress. Then its lease runs out: cut short through another
    // connection rather than waited for, so that a loaded machine's stalled event loop cannot let a short lease
    // lapse while the receiver still lives (the claim TTL itself is checked above).
    async function claimThenDie(prefix: string): Promise<ClaimedDelivery> {
      const own = kind === "node-redis" ? await createClient({ url: server.url }).connect() : new Redis(server.url);
      const dying = createDeduplicator({
        store: redisStore(own, { prefix, persistence: "skip" }),
        claimTtlSeconds: 60,
      });
      try {
        const claim = await dying.claim(eventKey(1));
        expect(claim.status).toBe("claimed");
        expect((await dying.claim(eventKey(1))).status).toBe("in-progress");
        return claim as ClaimedDelivery;
      } finally {
        if ("close" in own) await own.close();
        else own.disconnect();
        await ioredis.pexpire(`${prefix}${EVENT_1_KEY}`, 1);
      }
    }
    const gone = (key: string) => until(async () => (await ioredis.exists(key)) === 0);

    it("frees a claim whose receiver died mid-handler once its lease runs out", async () => {
      const prefix = `died-${kind}:`;
      const dedup = createDeduplicator({
        store: redisStore(clients()[kind], { prefix, persistence: "skip" }),
        claimTtlSeconds: 0.2,
      });
      await claimThenDie(prefix);
      await gone(`${prefix}${EVENT_1_KEY}`);
      expect((await dedup.claim(eventKey(1))).status).toBe("claimed");
    });

    it("does not let a late release free a newer claim of the same event", async () => {
      const prefix = `late-${kind}:`;
      const store = redisStore(clients()[kind], { prefix, persistence: "skip" });
      const dedup = createDeduplicator({ store, claimTtlSeconds: 0.2 });
      const stale = await claimThenDie(prefix);
      await gone(`${prefix}${EVENT_1_KEY}`);
      expect((await dedup.claim(eventKey(1))).status).toBe("claimed");
      // The dead receiver's token, released through a live connection: the newer claim stays.
      await store.release(EVENT_1_KEY, "not-the-holder");
      await stale.release().catch(() => {}); // its own connection is closed
      expect((await dedup.claim(eventKey(1))).status).toBe("in-progress");
    });

    it("keeps renewing the claim while a handler runs longer than the lease", async () => {
      const prefix = `renew-${kind}:`;
      const store = redisStore(clients()[kind], { prefix, persistence: "skip" });
      let renewals = 0;
      const counting = {
        ...store,
        renew: async (...args: Parameters<typeof store.renew>) => {
          const held = await store.renew(...args);
          if (held) renewals++;
          return held;
        },
      };
      // A lease long enough that a loaded machine's event-loop stalls do not let it lapse between renewals.
      const dedup = createDeduplicator({ store: counting, claimTtlSeconds: 1.2 });
      const other = createDeduplicator({ store, claimTtlSeconds: 1.2 });
      const outcome = await dedup.run(eventKey(1), async () => {
        await until(async () => renewals >= 5); // five renewals, one every 0.4 s: well over one lease
        return (await other.claim(eventKey(1))).status;
      });
      expect(outcome).toEqual({ status: "processed", result: "in-progress" });
      expect((await other.claim(eventKey(1))).status).toBe("duplicate");
    });

    it("complete says whether the claim was still ours, and marks the event done either way", async () => {
      const prefix = `complete-${kind}:`;
      const store = redisStore(clients()[kind], { prefix, persistence: "skip" });
      expect(await store.claim("k", "mine", 60_000)).toBe("claimed");
      expect(await store.complete("k", "mine", 60_000)).toBe(true);
      expect(await store.claim("j", "theirs", 60_000)).toBe("claimed");
      expect(await store.complete("j", "mine", 60_000)).toBe(false);
      expect(await ioredis.get(`${prefix}j`)).toBe("done");
      expect(await store.complete("gone", "mine", 60_000)).toBe(false); // the lease ran out: nothing held it
    });

    it("a renewal by a token that no longer holds the claim fails and extends nothing", async () => {
      const prefix = `renew-lost-${kind}:`;
      const store = redisStore(clients()[kind], { prefix, persistence: "skip" });
      expect(await store.claim("k", "mine", 60_000)).toBe("claimed");
      expect(await store.renew("k", "theirs", 120_000)).toBe(false);
      expect(await ioredis.pttl(`${prefix}k`)).toBeLessThanOrEqual(60_000);
      expect(await store.renew("k", "mine", 120_000)).toBe(true);
      expect(await ioredis.pttl(`${prefix}k`)).toBeGreaterThan(60_000);
    });
  });

  it("runs each of 200 events exactly once over 1,000 concurrent deliveries to a node-redis and an ioredis receiver, retrying failed handlers", async () => {
    const prefix = "simulation:";
    // Separate connections from the other tests': each receiver has its own client.
    const a = createClient({ url: server.url });
    await a.connect();
    const b = new Redis(server.url);
    try {
      const receivers: Deduplicator[] = [
        createDeduplicator({ store: redisStore(a, { prefix, persistence: "skip" }) }),
        createDeduplicator({ store: redisStore(b, { prefix, persistence: "skip" }) }),
      ];
      const failOnce = new Set([0, 42, 99, 150, 198]);
      const started = performance.now();
      const report = await simulateDeliveries({
        receivers,
        events: 200,
        deliveriesPerEvent: 5,
        failOnce,
        concurrency: 64,
        seed: 2026,
      });
      const elapsed = performance.now() - started;
      console.log(
        `redis dedup: ${report.deliveries} deliveries (${report.retries} retries) of 200 events in ${elapsed.toFixed(0)} ms; ` +
          `processed ${report.processed}, duplicates ${report.duplicates}, in progress ${report.inProgress}, ` +
          `failed ${report.failures}; per receiver ${report.perReceiver.join(" / ")}`,
      );
      expect(report.successes.every((s) => s === 1)).toBe(true);
      expect(report.runs.filter((r, n) => r !== (failOnce.has(n) ? 2 : 1))).toEqual([]);
      expect(report.processed).toBe(200);
      expect(report.failures).toBe(failOnce.size);
      expect(report.inProgress).toBeGreaterThan(0);
      expect(Math.min(...report.perReceiver)).toBeGreaterThan(300);
    } finally {
      await a.close();
      await b.quit();
    }
  });

  it("refuses a client of another library with a TypeError", () => {
    expect(() => redisStore({} as never)).toThrow(/node-redis v4\+\) or ioredis/);
  });
});
