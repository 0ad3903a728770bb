import { Redis } from "ioredis";
import { createClient } from "redis";
import { afterEach, describe, expect, it } from "vitest";
import { createDeduplicator, createWebhookHandler, DedupStoreError, type FetchWebhookHandler } from "../src/index.js";
import { type RedisClientLike, redisStore, type RedisStoreOptions } from "../src/redis.js";
import { eventNumber } from "./support/fixtures.js";
import { startLossyProxy } from "./support/lossy-proxy.js";
import { settings } from "./support/receiver.js";
import { send } from "./support/sender.js";
import { redisServerAvailable, type RedisServer, startRedisServer } from "./support/servers.js";
import { until } from "./support/wait.js";

// The Redis fault matrix: a real redis-server, killed, restarted and cut off
// while receivers take deliveries from a sender that retries as the service
// does. The lease and the retry schedule are the defaults scaled by 1/4 (see
// support/sender.ts): a 1.25 s lease, retries over 3.9 s; the store timeout is the default 1 s.
const LEASE_SECONDS = 1.25;
const STORE_TIMEOUT_MS = 1000;

type Kind = "node-redis" | "ioredis";
const KINDS: Kind[] = ["node-redis", "ioredis"];

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function redisServer(options?: Parameters<typeof startRedisServer>[0]): Promise<RedisServer> {
  const server = await startRedisServer(options);
  cleanups.push(() => server.stop());
  return server;
}

/** A client that reconnects every 20 ms and reports errors (a client without an error listener crashes the process). */
async function connectClient(kind: Kind, url: string): Promise<RedisClientLike> {
  if (kind === "node-redis") {
    const client = createClient({ url, socket: { reconnectStrategy: () => 20 } }).on("error", () => {});
    await client.connect();
    cleanups.push(() => client.close());
    return client;
  }
  const client = new Redis(url, { retryStrategy: () => 20 }).on("error", () => {});
  await client.ping();
  cleanups.push(async () => client.disconnect());
  return client;
}

/** A receiver on its own Redis connection, counting how often each event's handler ran. */
class Receivers {
  readonly runs = new Map<string, number>();
  readonly errors: unknown[] = [];
  readonly warnings: string[] = [];
  readonly handlers: FetchWebhookHandler[] = [];
  /** Events whose handler returned. */
  readonly finished = new Set<string>();

  /** `hold(id)`: a promise the handler of that event waits for before it returns. */
  constructor(private readonly hold: (id: string) => Promise<void> | undefined = () => undefined) {}

  async add(kind: Kind, url: string, options: RedisStoreOptions = {}, leaseSeconds = LEASE_SECONDS) {
    const store = redisStore(await connectClient(kind, url), {
      prefix: "faults:",
      onWarning: (w) => this.warnings.push(w),
      ...options,
    });
    const deduplicator = createDeduplicator({ store, claimTtlSeconds: leaseSeconds, storeTimeoutMs: STORE_TIMEOUT_MS });
    const handler = createWebhookHandler(
      { ...settings, deduplicator, onError: (error) => this.errors.push(error) },
      async (event) => {
        this.runs.set(event.id, (this.runs.get(event.id) ?? 0) + 1);
        await (this.hold(event.id) ?? new Promise((resolve) => setTimeout(resolve, 10))); // the work takes a moment
        this.finished.add(event.id);
      },
    );
    this.handlers.push(handler);
    return { store, handler };
  }

  /** Handler runs of event `n`. */
  runsOf(n: number): number {
    return this.runs.get(eventNumber(n).id) ?? 0;
  }

  /** Any receiver, chosen per attempt. */
  any = (attempt: number, n: number) => this.handlers[(attempt + n) % this.handlers.length]!;
}

describe.runIf(redisServerAvailable())("the Redis fault matrix, on a real redis-server", () => {
  it("with AOF (appendfsync always), a kill -9 and restart mid-run loses nothing and handles nothing twice", async () => {
    const server = await redisServer({ appendfsync: "always" });
    // Handlers of the second half of the events wait for this gate: the kill lands while they hold their claims.
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const receivers = new Receivers((id) => (Number.parseInt(id.slice(-12), 16) >= EVENTS / 2 ? gate : undefined));
    // The default 5 s lease: this test is about what survives the restart, and a restart slower than a
    // shortened lease on a loaded machine would test the lease instead (condition 2 of the README).
    for (const kind of KINDS) {
      const { store } = await receivers.add(kind, server.url, { persistence: "require" }, 5);
      expect(await store.persistence).toMatchObject({ mode: "aof", appendfsync: "always", survivesRestart: true });
    }
    const EVENTS = 40;
    // Every event delivered twice at once (the service may send one event more than once).
    const sending = Array.from({ length: EVENTS * 2 }, (_, i) =>
      send(i % EVENTS, (attempt) => receivers.any(attempt, i)),
    );
    await until(() => receivers.runs.size === EVENTS); // every event claimed; half of them still in their handler
    await server.kill("SIGKILL");
    const duringOutage = await send(0, (attempt) => receivers.any(attempt, 0), {
      maxAttempts: 1,
      initialDelayMs: 0,
      factor: 1,
    });
    await server.restart();
    openGate();
    const reports = await Promise.all(sending);
    expect(duringOutage.statuses).toEqual([503]);
    expect(reports.filter((report) => !report.acknowledged)).toEqual([]);
    await until(() => [...receivers.finished.values()].length === EVENTS);
    expect([...receivers.runs.values()].filter((runs) => runs !== 1)).toEqual([]);
    // After all that, every event is remembered as done.
    const later = await Promise.all(
      Array.from({ length: EVENTS }, (_, n) => send(n, (attempt) => receivers.any(attempt, n))),
    );
    expect(later.filter((report) => !report.acknowledged)).toEqual([]);
    expect([...receivers.runs.values()].filter((runs) => runs !== 1)).toEqual([]);
    expect(receivers.warnings).toEqual([]);
  });

  it("without persistence, redisStore warns at start, and after a restart every redelivery is handled again", async () => {
    const server = await redisServer();
    const receivers = new Receivers();
    for (const kind of KINDS) await receivers.add(kind, server.url);
    await until(() => receivers.warnings.length === KINDS.length);
    expect(receivers.warnings[0]).toMatch(/without persistence: a restart forgets every handled event/);
    const EVENTS = 10;
    const first = await Promise.all(
      Array.from({ length: EVENTS }, (_, n) => send(n, (attempt) => receivers.any(attempt, n))),
    );
    expect(first.every((report) => report.acknowledged)).toBe(true);
    // Every done mark written (they follow the handlers), so only the restart can make them go.
    const admin = (await connectClient("ioredis", server.url)) as Redis;
    const marks = async () =>
      (await Promise.all((await admin.keys("faults:*")).map((key) => admin.get(key)))).filter((v) => v === "done");
    await until(async () => (await marks()).length === EVENTS);
    await server.restart();
    await until(async () => (await admin.ping().catch(() => "")) === "PONG");
    expect(await marks()).toEqual([]);
    // The documented outcome: the done marks are gone, so a redelivery after the restart runs the handler again.
    const again = await Promise.all(
      Array.from({ length: EVENTS }, (_, n) => send(n, (attempt) => receivers.any(attempt, n))),
    );
    expect(again.every((report) => report.acknowledged)).toBe(true);
    await until(() => [...receivers.runs.values()].every((runs) => runs === 2));
  });

  it('with persistence: "require", redisStore refuses a Redis without AOF and every delivery gets 503', async () => {
    const server = await redisServer();
    const receivers = new Receivers();
    const { store, handler } = await receivers.add("node-redis", server.url, { persistence: "require" });
    await expect(store.persistence).rejects.toThrow(/refusing this Redis: Redis runs without persistence/);
    const report = await send(1, () => handler, { maxAttempts: 1, initialDelayMs: 0, factor: 1 });
    expect(report.statuses).toEqual([503]);
    expect(receivers.errors[0]).toBeInstanceOf(DedupStoreError);
    expect(receivers.runs.size).toBe(0);
  });

  it("says so when CONFIG is not permitted, and warns that it could not check", async () => {
    const server = await redisServer({ appendfsync: "everysec" });
    const admin = await connectClient("ioredis", server.url);
    await (admin as Redis).call("ACL", "SETUSER", "receiver", "on", ">secret", "~*", "+@all", "-config");
    const receivers = new Receivers();
    const url = `redis://receiver:secret@127.0.0.1:${server.port}`;
    for (const kind of KINDS) {
      const { store } = await receivers.add(kind, url);
      expect(await store.persistence).toMatchObject({ mode: "unknown", survivesRestart: false });
    }
    expect(receivers.warnings).toHaveLength(KINDS.length);
    for (const warning of receivers.warnings)
      expect(warning).toMatch(/could not read the Redis persistence settings \(CONFIG GET: .*NOPERM/);
  });

  describe.each(KINDS)("with %s", (kind) => {
    it("a claim whose reply was lost is handled once within the sender's retry schedule", async () => {
      const server = await redisServer({ appendfsync: "everysec" });
      const proxy = await startLossyProxy(server);
      cleanups.push(() => proxy.close());
      const receivers = new Receivers();
      await receivers.add(kind, proxy.url);
      const lost = proxy.loseNextReply(/NX/);
      const report = await send(1, (attempt) => receivers.any(attempt, 1));
      await lost;
      expect(report.statuses[0]).not.toBe(200); // the first attempt's claim ran in Redis, its answer never came back
      expect(report.acknowledged).toBe(true);
      await until(() => receivers.runsOf(1) === 1);
      expect(receivers.runs.size).toBe(1);
      expect(receivers.runsOf(1)).toBe(1);
    });

    it("while Redis is down, answers 503 with Retry-After within the store timeout, and handles the event once after recovery", async () => {
      const server = await redisServer({ appendfsync: "everysec" });
      const receivers = new Receivers();
      const { handler } = await receivers.add(kind, server.url);
      await server.kill("SIGKILL");
      const started = performance.now();
      const down = await send(1, () => handler, { maxAttempts: 1, initialDelayMs: 0, factor: 1 });
      const elapsed = performance.now() - started;
      expect(down).toMatchObject({ statuses: [503], retryAfter: ["1"] });
      // Bounded by the store timeout (1 s), not by how long the outage lasts (until the restart below);
      // the margin is for a loaded machine.
      expect(elapsed).toBeLessThan(STORE_TIMEOUT_MS + 2000);
      expect(receivers.errors.at(-1)).toMatchObject({ name: "DedupStoreError", operation: "claim" });
      // The service retries; Redis comes back during its schedule.
      const retried = send(1, () => handler);
      await until(() => receivers.errors.length >= 2);
      await server.restart();
      const report = await retried;
      expect(report.acknowledged).toBe(true);
      expect(report.statuses[0]).toBe(503);
      await until(() => receivers.runsOf(1) === 1);
      expect((await send(1, () => handler)).acknowledged).toBe(true); // a duplicate now (or, for a moment, in progress)
      expect(receivers.runsOf(1)).toBe(1);
    });
  });
});
