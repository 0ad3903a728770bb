import { Redis } from "ioredis";
import { createClient } from "redis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createInbox,
  EventParkedError,
  type Inbox,
  type InboxOptions,
  type InboxStore,
  LeaseLostError,
  memoryInbox,
  type ReceivedWebhookEvent,
} from "../src/index.js";
import { retryDelayMs } from "../src/inbox-records.js";
import { type RedisClientLike, redisInbox } from "../src/redis.js";
import { eventNumber } from "./support/fixtures.js";
import { redisServerAvailable, type RedisServer, startRedisServer } from "./support/servers.js";
import { until } from "./support/wait.js";

// The inbox's behaviour on each store: in memory, and on a real redis-server through both client libraries.

const event = (n: number) => ({ ...eventNumber(n), known: true }) as ReceivedWebhookEvent;
const keyOf = (n: number) => `${eventNumber(n).id}:SUCCESS:${eventNumber(n).timestamp}`;

let server: RedisServer | undefined;
let clients: { nodeRedis: RedisClientLike & { close(): Promise<void> }; ioredis: Redis } | undefined;
const redis = redisServerAvailable();

beforeAll(async () => {
  if (!redis) return;
  server = await startRedisServer();
  clients = { nodeRedis: await createClient({ url: server.url }).connect(), ioredis: new Redis(server.url) };
});
afterAll(async () => {
  await clients?.nodeRedis.close();
  clients?.ioredis.disconnect();
  await server?.stop();
});

let prefixes = 0;
const STORES: [string, () => InboxStore][] = [
  ["memoryInbox", () => memoryInbox()],
  ...(redis
    ? ([
        [
          "redisInbox with node-redis",
          () => redisInbox(clients!.nodeRedis, { prefix: `i${++prefixes}:`, persistence: "skip" }),
        ],
        [
          "redisInbox with ioredis",
          () => redisInbox(clients!.ioredis, { prefix: `i${++prefixes}:`, persistence: "skip" }),
        ],
      ] as [string, () => InboxStore][])
    : []),
];

const inboxes: Inbox[] = [];
afterEach(async () => {
  for (const inbox of inboxes.splice(0)) await inbox.stop();
});

/** A clock the test moves, for retry times. */
function clock() {
  const time = { now: 1_772_359_200_000 };
  return { time, now: () => time.now };
}

describe.each(STORES)("createInbox on %s", (_name, makeStore) => {
  function inbox(options: Partial<InboxOptions> & Pick<InboxOptions, "handler">) {
    const created = createInbox({ store: makeStore(), pollIntervalMs: 5, ...options });
    inboxes.push(created);
    return created;
  }

  it("runs the handler once for an accepted event, as attempt 1 under its dedup key", async () => {
    const runs: [string, number, string][] = [];
    const box = inbox({ handler: (e, { attempt, key }) => void runs.push([e.id, attempt, key]) });
    expect(await box.accept(event(1))).toBe("accepted");
    box.start();
    await until(() => runs.length === 1);
    expect(runs).toEqual([[eventNumber(1).id, 1, keyOf(1)]]);
  });

  it("does not append a redelivery of an accepted event again: it is a duplicate and runs once", async () => {
    const store = makeStore();
    const runs: string[] = [];
    const box = createInbox({ store, pollIntervalMs: 5, handler: (e) => void runs.push(e.id) });
    inboxes.push(box);
    expect([await box.accept(event(1)), await box.accept(event(1)), await box.accept(event(1))]).toEqual([
      "accepted",
      "duplicate",
      "duplicate",
    ]);
    box.start();
    await until(() => runs.length === 1);
    await box.stop();
    expect(await store.take("probe", 10, 60_000, Date.now())).toEqual([]); // nothing else was appended
    expect(runs).toEqual([eventNumber(1).id]);
    expect(await box.accept(event(1))).toBe("duplicate"); // and after it ran, still a duplicate
  });

  it("retries a failing handler after doubling delays, then parks the event after maxAttempts", async () => {
    const { time, now } = clock();
    const attempts: number[] = [];
    const errors: unknown[] = [];
    const box = inbox({
      now,
      maxAttempts: 3,
      retryDelaySeconds: 10,
      onError: (error) => void errors.push(error),
      handler: (_e, { attempt }) => {
        attempts.push(attempt);
        throw new Error(`database down (run ${attempt})`);
      },
    });
    await box.accept(event(2));
    box.start();
    await until(() => errors.length === 1); // reported once the retry is scheduled
    time.now += 10_000; // the first retry is due 10 s after the first run
    await until(() => errors.length === 2);
    time.now += 20_000; // the second, 20 s after the second
    await until(() => errors.length === 3);
    expect(attempts).toEqual([1, 2, 3]);
    expect(errors.slice(0, 2)).toEqual([new Error("database down (run 1)"), new Error("database down (run 2)")]);
    expect(errors[2]).toBeInstanceOf(EventParkedError);
    expect(errors[2]).toMatchObject({ key: keyOf(2), attempts: 3, cause: new Error("database down (run 3)") });
    expect(await box.parked()).toEqual([
      {
        key: keyOf(2),
        event: event(2),
        attempts: 3,
        error: "Error: database down (run 3)",
        parkedAt: new Date(time.now),
      },
    ]);
  });

  it("runs a replayed parked event again from its first attempt", async () => {
    let failing = true;
    const runs: number[] = [];
    const box = inbox({
      maxAttempts: 1,
      onError: () => {},
      handler: (_e, { attempt }) => {
        runs.push(attempt);
        if (failing) throw new Error("not yet");
      },
    });
    await box.accept(event(3));
    box.start();
    await until(async () => (await box.parked()).length === 1);
    failing = false;
    expect(await box.replay(keyOf(3))).toBe(true);
    await until(() => runs.length === 2);
    expect(runs).toEqual([1, 1]);
    expect(await box.parked()).toEqual([]);
    expect(await box.replay(keyOf(3))).toBe(false); // nothing parked under that key any more
  });

  it("runs at most `concurrency` handlers at once", async () => {
    let running = 0;
    let most = 0;
    let done = 0;
    const box = inbox({
      concurrency: 2,
      handler: async () => {
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
        done++;
      },
    });
    for (let n = 0; n < 6; n++) await box.accept(event(n));
    box.start();
    await until(() => done === 6);
    expect(most).toBe(2);
  });

  it("stop() waits for the runs in progress, and nothing runs after it", async () => {
    let finish!: () => void;
    const finished: string[] = [];
    const box = inbox({
      concurrency: 1,
      handler: async (e) => {
        await new Promise<void>((resolve) => (finish = resolve));
        finished.push(e.id);
      },
    });
    await box.accept(event(1));
    await box.accept(event(2));
    box.start();
    await until(() => finish !== undefined);
    const stopped = box.stop();
    finish();
    await stopped;
    expect(finished).toEqual([eventNumber(1).id]);
  });
});

describe("createInbox on memoryInbox", () => {
  it("reports a LeaseLostError when another receiver took the event over while the handler blocked", async () => {
    const { time, now } = clock();
    const store = memoryInbox();
    const errors: unknown[] = [];
    const taken: string[] = [];
    const box = createInbox({
      store,
      now,
      leaseSeconds: 1,
      pollIntervalMs: 5,
      onError: (error) => void errors.push(error),
      handler: () => {
        // A handler that blocks: no renewal runs while the clock passes the lease, and another receiver's
        // poll takes the event over (memoryInbox's take completes synchronously).
        time.now += 1_000;
        void store.take("another receiver", 1, 1_000, now()).then((entries) => taken.push(...entries.map((e) => e.id)));
      },
    });
    inboxes.push(box);
    await box.accept(event(4));
    box.start();
    await until(() => errors.length === 1);
    expect(taken).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(LeaseLostError);
    expect((errors[0] as Error).message).toMatch(new RegExp(`^the claim on ${keyOf(4)} was lost .*may have run twice`));
  });

  it("takes over an entry left unrenewed for a lease, as its next attempt, and not before", async () => {
    const store = memoryInbox();
    await store.append("k", "record", 60_000, 0);
    const [held] = await store.take("a", 1, 1_000, 0);
    expect(held).toMatchObject({ record: "record", attempt: 1 });
    expect(await store.take("b", 1, 1_000, 999)).toEqual([]);
    expect(await store.renew("a", held!.id, 500)).toBe(true);
    expect(await store.take("b", 1, 1_000, 1_499)).toEqual([]);
    expect(await store.take("b", 1, 1_000, 1_500)).toEqual([{ id: held!.id, record: "record", attempt: 2 }]);
    expect(await store.renew("a", held!.id, 1_500)).toBe(false);
    expect(await store.done("a", held!.id)).toBe(false);
    expect(await store.done("b", held!.id)).toBe(true);
  });

  it("keeps a retry out of reach until it is due", async () => {
    const store = memoryInbox();
    await store.append("k", "record", 60_000, 0);
    const [held] = await store.take("a", 1, 1_000, 0);
    expect(await store.retry("a", held!.id, "record", 2, 5_000)).toBe(true);
    expect(await store.take("a", 1, 1_000, 4_999)).toEqual([]);
    expect(await store.take("a", 1, 1_000, 5_000)).toMatchObject([{ record: "record", attempt: 2 }]);
  });

  it("forgets a dedup mark after its ttl, and keeps at most maxMarks", async () => {
    const store = memoryInbox({ maxMarks: 2 });
    expect(await store.append("a", "1", 1_000, 0)).toBe(true);
    expect(await store.append("a", "1", 1_000, 999)).toBe(false);
    expect(await store.append("a", "1", 1_000, 1_000)).toBe(true);
    await store.append("b", "2", 60_000, 1_000);
    await store.append("c", "3", 60_000, 1_000); // evicts "a", the oldest
    expect(await store.append("a", "1", 60_000, 1_000)).toBe(true);
    expect(await store.append("c", "3", 60_000, 1_000)).toBe(false);
  });

  it("refuses bad options with a TypeError", () => {
    const store = memoryInbox();
    const handler = () => {};
    for (const bad of [
      { maxAttempts: 0 },
      { maxAttempts: 1.5 },
      { concurrency: 0 },
      { leaseSeconds: 0.05 },
      { leaseSeconds: 3601 },
      { pollIntervalMs: 0 },
      { retryDelaySeconds: Number.NaN },
      { ttlSeconds: -1 },
    ]) {
      expect(() => createInbox({ store, handler, ...bad }), JSON.stringify(bad)).toThrow(TypeError);
    }
    expect(() => createInbox({ store } as InboxOptions)).toThrow(/handler/);
    expect(() => createInbox({ handler } as unknown as InboxOptions)).toThrow(/store/);
    expect(() => memoryInbox({ maxMarks: 0 })).toThrow(TypeError);
  });
});

describe("retryDelayMs", () => {
  it.each([
    [1, 1_000, 300_000, 1_000],
    [2, 1_000, 300_000, 2_000],
    [3, 1_000, 300_000, 4_000],
    [9, 1_000, 300_000, 256_000],
    [10, 1_000, 300_000, 300_000],
    [1_000, 1_000, 300_000, 300_000],
    [4, 500, 3_000, 3_000],
  ])("after run %i, first %i ms, at most %i ms: %i ms", (attempt, first, max, expected) => {
    expect(retryDelayMs(attempt, first, max)).toBe(expected);
  });
});
