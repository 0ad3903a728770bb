import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import {
  createInbox,
  createWebhookHandler,
  type Inbox,
  InboxStoreError,
  type ReceivedWebhookEvent,
} from "../src/index.js";
import { redisInbox } from "../src/redis.js";
import { eventNumber } from "./support/fixtures.js";
import { delivery, settings } from "./support/receiver.js";
import { redisServerAvailable, type RedisServer, startRedisServer } from "./support/servers.js";
import { until } from "./support/wait.js";

// redisInbox on a real redis-server: what it writes, its leases, its persistence check, and Redis going away.

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function redisServer(options?: Parameters<typeof startRedisServer>[0]): Promise<RedisServer> {
  const server = await startRedisServer(options);
  cleanups.push(() => server.stop());
  return server;
}

async function client(url: string): Promise<Redis> {
  const redis = new Redis(url, { retryStrategy: () => 20 }).on("error", () => {});
  await redis.ping();
  cleanups.push(async () => redis.disconnect());
  return redis;
}

function started(inbox: Inbox): Inbox {
  inbox.start();
  cleanups.push(() => inbox.stop());
  return inbox;
}

describe.runIf(redisServerAvailable())("redisInbox on a real redis-server", () => {
  it("appends an accepted event to the stream once: a redelivery is not appended twice", async () => {
    const redis = await client((await redisServer()).url);
    const store = redisInbox(redis, { persistence: "skip" });
    expect(await store.append("e:SUCCESS", "record", 60_000, 0)).toBe(true);
    expect(await store.append("e:SUCCESS", "record", 60_000, 0)).toBe(false);
    expect(await redis.xlen("exchange-kit:inbox:stream")).toBe(1);
    expect(await redis.pttl("exchange-kit:inbox:seen:e:SUCCESS")).toBeGreaterThan(59_000);
  });

  it("takes over an entry whose receiver stopped renewing it for a lease, counting the cut-short run", async () => {
    const redis = await client((await redisServer()).url);
    const store = redisInbox(redis, { persistence: "skip" });
    await store.append("k", "record", 60_000, 0);
    const [held] = await store.take("dead receiver", 1, 200, 0);
    expect(held).toMatchObject({ record: "record", attempt: 1 });
    expect(await store.take("live receiver", 1, 60_000, 0)).toEqual([]); // held, and not idle for a minute
    let taken: Awaited<ReturnType<typeof store.take>> = [];
    await until(async () => (taken = await store.take("live receiver", 1, 200, 0)).length === 1);
    expect(taken).toEqual([{ id: held!.id, record: "record", attempt: 2 }]);
    expect(await store.renew("dead receiver", held!.id, 0)).toBe(false);
    expect(await store.done("dead receiver", held!.id)).toBe(false);
    expect(await store.done("live receiver", held!.id)).toBe(true);
    expect(await redis.xlen("exchange-kit:inbox:stream")).toBe(0);
  });

  it("keeps a retry in the retries set until it is due, then hands it out as the next attempt", async () => {
    const redis = await client((await redisServer()).url);
    const store = redisInbox(redis, { persistence: "skip" });
    await store.append("k", "rec:ord", 60_000, 0);
    const [held] = await store.take("a", 1, 60_000, 0);
    expect(await store.retry("a", held!.id, "rec:ord", 2, 5_000)).toBe(true);
    expect(await redis.zscore("exchange-kit:inbox:retries", "2:rec:ord")).toBe("5000");
    expect(await store.take("a", 1, 60_000, 4_999)).toEqual([]);
    expect(await store.take("a", 1, 60_000, 5_000)).toMatchObject([{ record: "rec:ord", attempt: 2 }]);
    expect(await redis.zcard("exchange-kit:inbox:retries")).toBe(0);
  });

  it("stop() removes the stopped receiver from the consumer group, as it holds nothing", async () => {
    const redis = await client((await redisServer()).url);
    let ran = 0;
    const inbox = createInbox({
      store: redisInbox(redis, { persistence: "skip" }),
      pollIntervalMs: 10,
      handler: () => void ran++,
    });
    const consumers = async () =>
      (await redis.call("XINFO", "CONSUMERS", "exchange-kit:inbox:stream", "receivers")) as unknown[];
    await inbox.accept({ ...eventNumber(1), known: true } as ReceivedWebhookEvent);
    inbox.start();
    await until(async () => ran === 1 && (await redis.xlen("exchange-kit:inbox:stream")) === 0);
    expect(await consumers()).toHaveLength(1); // Redis made it a consumer when it handed it the event
    await inbox.stop();
    expect(await consumers()).toEqual([]);
  });

  it('with persistence: "require", refuses a Redis without AOF: nothing is accepted, deliveries get 503', async () => {
    const redis = await client((await redisServer()).url);
    const store = redisInbox(redis, { persistence: "require" });
    await expect(store.persistence).rejects.toThrow(
      /refusing this Redis: Redis runs without persistence: a restart loses every accepted event not yet handled/,
    );
    const errors: unknown[] = [];
    const inbox = createInbox({ store, handler: () => {} });
    const handler = createWebhookHandler({ ...settings, inbox, onError: (error) => void errors.push(error) });
    const response = await handler(new Request("https://receiver.example/webhooks", await delivery()));
    expect(response.status).toBe(503);
    expect(errors[0]).toBeInstanceOf(InboxStoreError);
    expect(await redis.exists("exchange-kit:inbox:stream")).toBe(0);
  });

  it("accepts a Redis with AOF, and warns about one without", async () => {
    const withAof = redisInbox(await client((await redisServer({ appendfsync: "everysec" })).url), {
      persistence: "require",
    });
    expect(await withAof.persistence).toMatchObject({ mode: "aof", appendfsync: "everysec", survivesRestart: true });
    const warnings: string[] = [];
    const without = redisInbox(await client((await redisServer()).url), { onWarning: (w) => void warnings.push(w) });
    expect(await without.persistence).toMatchObject({ mode: "none", survivesRestart: false });
    expect(warnings).toEqual([expect.stringMatching(/without persistence: a restart loses every accepted event/)]);
  });

  it("answers 503 while Redis is down, within the store timeout, and runs the redelivery once Redis is back", async () => {
    const server = await redisServer({ appendfsync: "everysec" });
    const redis = await client(server.url);
    const ran: string[] = [];
    const errors: unknown[] = [];
    const store = redisInbox(redis, { persistence: "require" });
    await store.persistence;
    const inbox = started(
      createInbox({
        store,
        pollIntervalMs: 20,
        handler: (event) => void ran.push(event.id),
        onError: (error) => void errors.push(error),
      }),
    );
    const handler = createWebhookHandler({ ...settings, inbox, onError: (error) => void errors.push(error) });
    const post = async () => handler(new Request("https://receiver.example/webhooks", await delivery()));
    await server.kill("SIGKILL");
    const sent = performance.now();
    const down = await post();
    // Bounded by the store timeout (1 s), not by the outage; the margin is for a loaded machine.
    expect(performance.now() - sent).toBeLessThan(1000 + 2000);
    expect({ status: down.status, retryAfter: down.headers.get("retry-after") }).toEqual({
      status: 503,
      retryAfter: "1",
    });
    expect(await down.json()).toEqual({ error: "INBOX_UNAVAILABLE" });
    expect(errors).toContainEqual(expect.objectContaining({ name: "InboxStoreError", operation: "append" }));
    await server.restart();
    await until(async () => (await redis.ping().catch(() => "")) === "PONG");
    expect((await post()).status).toBe(200);
    await until(() => ran.length === 1);
    expect((await (await post()).json()) as object).toEqual({ received: true, duplicate: true });
  });
});
