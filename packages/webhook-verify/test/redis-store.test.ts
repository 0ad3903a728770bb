import { Redis } from "ioredis";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeduplicator, type Deduplicator } from "../src/index.js";
import { redisStore } from "../src/redis.js";
import { redisServerAvailable, type RedisServer, startRedisServer } from "./support/servers.js";
import { eventKey, simulateDeliveries } from "./support/simulation.js";

const handled = () => "handled";
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
    await nodeRedis?.close();
    await ioredis?.quit();
    await server?.stop();
  });

  // Each test uses its own key prefix, so tests never see each other's keys.
  let prefixes = 0;
  const clients = () => ({ "node-redis": nodeRedis, ioredis }) as const;
  const dedupWith = (kind: "node-redis" | "ioredis", options: { ttlSeconds?: number; claimTtlSeconds?: number } = {}) =>
    createDeduplicator({ store: redisStore(clients()[kind], { prefix: `test${++prefixes}:` }), ...options });

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
      const dedup = createDeduplicator({ store: redisStore(clients()[kind], { prefix }), ttlSeconds: 3600, claimTtlSeconds: 60 });
      const key = `${prefix}${eventKey(1).id}:${eventKey(1).event}`;
      const claim = await dedup.claim(eventKey(1));
      expect(await ioredis.get(key)).toMatch(/^processing:/);
      expect(await ioredis.pttl(key)).toBeGreaterThan(59_000);
      if (claim.status === "claimed") await claim.complete();
      expect(await ioredis.get(key)).toBe("done");
      expect(await ioredis.pttl(key)).toBeGreaterThan(3_599_000);
    });

    it("frees a claim whose receiver died mid-handler after claimTtlSeconds", async () => {
      const dedup = dedupWith(kind, { claimTtlSeconds: 0.2 });
      await dedup.claim(eventKey(1)); // never completed
      expect((await dedup.claim(eventKey(1))).status).toBe("in-progress");
      await pause(300);
      expect((await dedup.claim(eventKey(1))).status).toBe("claimed");
    });

    it("does not let a late release free a newer claim of the same event", async () => {
      const dedup = dedupWith(kind, { claimTtlSeconds: 0.2 });
      const stale = await dedup.claim(eventKey(1));
      await pause(300);
      expect((await dedup.claim(eventKey(1))).status).toBe("claimed");
      if (stale.status === "claimed") await stale.release();
      expect((await dedup.claim(eventKey(1))).status).toBe("in-progress");
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
        createDeduplicator({ store: redisStore(a, { prefix }) }),
        createDeduplicator({ store: redisStore(b, { prefix }) }),
      ];
      const failOnce = new Set([0, 42, 99, 150, 198]);
      const started = performance.now();
      const report = await simulateDeliveries({ receivers, events: 200, deliveriesPerEvent: 5, failOnce, concurrency: 64, seed: 2026 });
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
