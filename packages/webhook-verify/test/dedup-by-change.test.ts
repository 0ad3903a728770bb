import { serve } from "@hono/node-server";
import type { Server } from "node:http";
import { createClient } from "redis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createDeduplicator,
  createInbox,
  createWebhookHandler,
  type DedupKeyStrategy,
  type DedupStore,
  type Inbox,
  type InboxStore,
  memoryInbox,
  memoryStore,
  type ReceivedWebhookEvent,
  type WebhookHandlerOptions,
} from "../src/index.js";
import { type RedisClientLike, redisInbox, redisStore } from "../src/redis.js";
import { closed, delivery, listening, settings } from "./support/receiver.js";
import { redisServerAvailable, type RedisServer, startRedisServer, urlOf } from "./support/servers.js";
import { until } from "./support/wait.js";

// Deduplication keyed by the change (id + event + timestamp): a customer VERIFIED, FAILED, then VERIFIED again
// after a KYC update is three changes, each handled once; a redelivery of any of them is a duplicate. Both
// delivery paths (onEvent under dedup claims, and the inbox), on the memory stores and on a real redis-server.

const CUSTOMER = "3f2a9c1e-5b7d-4e8f-a1c2-0d9e8f7a6b5c";
const verified = { type: "CUSTOMER", id: CUSTOMER, event: "VERIFIED", timestamp: "2026-03-01T09:30:05Z", metadata: {} };
const failed = {
  type: "CUSTOMER",
  id: CUSTOMER,
  event: "FAILED",
  timestamp: "2026-03-02T11:04:51Z",
  metadata: { failure_reason: "DOCUMENT_VERIFICATION_FAILED" },
};
/** The KYC update re-ran verification: the same status again, a new change. */
const verifiedAgain = { ...verified, timestamp: "2026-03-05T16:20:12Z" };
const CHANGES = [verified, failed, verifiedAgain];

let redisServer: RedisServer | undefined;
let redis: (RedisClientLike & { close(): Promise<void> }) | undefined;
const withRedis = redisServerAvailable();

beforeAll(async () => {
  if (!withRedis) return;
  redisServer = await startRedisServer();
  redis = await createClient({ url: redisServer.url }).connect();
});
afterAll(async () => {
  await redis?.close();
  await redisServer?.stop();
});

let server: Server | undefined;
const inboxes: Inbox[] = [];
afterEach(async () => {
  if (server) await closed(server);
  server = undefined;
  for (const inbox of inboxes.splice(0)) await inbox.stop();
});

let prefixes = 0;
const DEDUP_STORES: [string, () => DedupStore][] = [
  ["memoryStore", () => memoryStore()],
  ...(withRedis
    ? ([["redisStore", () => redisStore(redis!, { prefix: `change${++prefixes}:`, persistence: "skip" })]] as [
        string,
        () => DedupStore,
      ][])
    : []),
];
const INBOX_STORES: [string, () => InboxStore][] = [
  ["memoryInbox", () => memoryInbox()],
  ...(withRedis
    ? ([["redisInbox", () => redisInbox(redis!, { prefix: `change${++prefixes}:`, persistence: "skip" })]] as [
        string,
        () => InboxStore,
      ][])
    : []),
];

/** The Fetch handler on a loopback port; returns the webhook URL. */
async function serveWebhooks(options: WebhookHandlerOptions, onEvent?: (event: ReceivedWebhookEvent) => void) {
  const handler =
    onEvent === undefined ? createWebhookHandler(options as never) : createWebhookHandler(options, onEvent);
  server = await listening(serve({ fetch: (request) => handler(request), hostname: "127.0.0.1", port: 0 }) as Server);
  return `${urlOf(server)}/webhooks/exchange`;
}

/** Delivers each event once, in order, and returns the answers' bodies. */
async function deliverAll(url: string, events: object[]): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const event of events) answers.push(await (await fetch(url, await delivery(event))).json());
  return answers;
}

const RECEIVED = { received: true };
const DUPLICATE = { received: true, duplicate: true };
const label = (event: ReceivedWebhookEvent) => `${event.event} ${event.timestamp}`;

describe.each(DEDUP_STORES)("onEvent under dedup claims on %s", (_name, makeStore) => {
  async function receiver(dedupKey?: DedupKeyStrategy) {
    const handled: string[] = [];
    const deduplicator = createDeduplicator({ store: makeStore(), ...(dedupKey ? { dedupKey } : {}) });
    const url = await serveWebhooks({ ...settings, deduplicator }, (event) => void handled.push(label(event)));
    return { url, handled };
  }

  it("runs the handler for VERIFIED, FAILED, then VERIFIED again of one customer: three changes", async () => {
    const { url, handled } = await receiver();
    expect(await deliverAll(url, CHANGES)).toEqual([RECEIVED, RECEIVED, RECEIVED]);
    await until(() => handled.length === 3);
    expect(handled).toEqual(CHANGES.map((change) => `${change.event} ${change.timestamp}`));
  });

  it("answers a redelivery of each of the three changes as a duplicate and runs nothing more", async () => {
    const { url, handled } = await receiver();
    await deliverAll(url, CHANGES);
    await until(() => handled.length === 3);
    expect(await deliverAll(url, [...CHANGES].reverse())).toEqual([DUPLICATE, DUPLICATE, DUPLICATE]);
    await deliverAll(url, [{ ...failed, timestamp: "2026-03-06T08:00:00Z" }]); // a later change, handled after them
    await until(() => handled.length === 4);
    expect(handled.slice(3)).toEqual(["FAILED 2026-03-06T08:00:00Z"]);
  });

  it('with dedupKey "id+event", drops the second VERIFIED as a duplicate (the interface document\'s rule)', async () => {
    const { url, handled } = await receiver("id+event");
    expect(await deliverAll(url, CHANGES)).toEqual([RECEIVED, RECEIVED, DUPLICATE]);
    await until(() => handled.length === 2);
    expect(handled).toEqual([`VERIFIED ${verified.timestamp}`, `FAILED ${failed.timestamp}`]);
  });
});

describe.each(INBOX_STORES)("an inbox on %s", (_name, makeStore) => {
  async function receiver(dedupKey?: DedupKeyStrategy) {
    const handled: string[] = [];
    const inbox = createInbox({
      store: makeStore(),
      pollIntervalMs: 5,
      handler: (event) => void handled.push(label(event)),
      ...(dedupKey ? { dedupKey } : {}),
    });
    inboxes.push(inbox);
    inbox.start();
    return { url: await serveWebhooks({ ...settings, inbox }), handled };
  }

  it("runs the handler for VERIFIED, FAILED, then VERIFIED again of one customer: three changes", async () => {
    const { url, handled } = await receiver();
    expect(await deliverAll(url, CHANGES)).toEqual([RECEIVED, RECEIVED, RECEIVED]);
    await until(() => handled.length === 3);
    expect(handled.sort()).toEqual(CHANGES.map((change) => `${change.event} ${change.timestamp}`).sort());
  });

  it("answers a redelivery of each of the three changes as a duplicate and stores nothing more", async () => {
    const { url, handled } = await receiver();
    await deliverAll(url, CHANGES);
    await until(() => handled.length === 3);
    expect(await deliverAll(url, [...CHANGES].reverse())).toEqual([DUPLICATE, DUPLICATE, DUPLICATE]);
    await deliverAll(url, [{ ...failed, timestamp: "2026-03-06T08:00:00Z" }]); // a later change, handled after them
    await until(() => handled.length === 4);
    expect(handled.filter((run) => run.startsWith("VERIFIED"))).toHaveLength(2);
  });

  it('with dedupKey "id+event", drops the second VERIFIED as a duplicate (the interface document\'s rule)', async () => {
    const { url, handled } = await receiver("id+event");
    expect(await deliverAll(url, CHANGES)).toEqual([RECEIVED, RECEIVED, DUPLICATE]);
    await until(() => handled.length === 2);
    expect(handled.sort()).toEqual([`FAILED ${failed.timestamp}`, `VERIFIED ${verified.timestamp}`]);
  });
});

// An earlier version keyed on id:event: its marks are in the store when this version starts. `dedupKey:
// "id+event"` writes exactly those keys, so it stands for the earlier version here.
const UPGRADED_AT = new Date("2026-03-03T00:00:00Z"); // after `verified` and `failed`, before `verifiedAgain`
const asReceived = (event: object) => ({ ...event, known: true }) as ReceivedWebhookEvent;

describe.each(DEDUP_STORES)("the deduplicator after an upgrade from id:event keys, on %s", (_name, makeStore) => {
  it("runs a redelivery of an event the earlier version handled once more, without legacyKeysBefore", async () => {
    const store = makeStore();
    await createDeduplicator({ store, dedupKey: "id+event" }).run(verified, () => {});
    expect((await createDeduplicator({ store }).run(verified, () => {})).status).toBe("processed");
  });

  it("with legacyKeysBefore, answers that redelivery as a duplicate: its change came before the upgrade", async () => {
    const store = makeStore();
    await createDeduplicator({ store, dedupKey: "id+event" }).run(verified, () => {});
    const upgraded = createDeduplicator({ store, legacyKeysBefore: UPGRADED_AT });
    expect(await upgraded.run(asReceived(verified), () => {})).toEqual({ status: "duplicate" });
  });

  it("with legacyKeysBefore, handles a change made after the upgrade whatever the earlier marks say", async () => {
    const store = makeStore();
    await createDeduplicator({ store, dedupKey: "id+event" }).run(verified, () => {});
    const upgraded = createDeduplicator({ store, legacyKeysBefore: UPGRADED_AT });
    expect((await upgraded.run(verifiedAgain, () => "ran")).status).toBe("processed");
  });

  it("with legacyKeysBefore, reports an event the earlier version is handling right now as in progress", async () => {
    const store = makeStore();
    const earlier = await createDeduplicator({ store, dedupKey: "id+event" }).claim(failed);
    expect(earlier.status).toBe("claimed");
    const upgraded = createDeduplicator({ store, legacyKeysBefore: UPGRADED_AT });
    expect(await upgraded.claim(failed)).toEqual({ status: "in-progress" });
  });

  it("with legacyKeysBefore, leaves the earlier key free after only looking at it", async () => {
    const store = makeStore();
    const upgraded = createDeduplicator({ store, legacyKeysBefore: UPGRADED_AT });
    expect((await upgraded.run(failed, () => {})).status).toBe("processed");
    expect((await upgraded.run(failed, () => {})).status).toBe("duplicate");
    expect(await store.claim(`${CUSTOMER}:FAILED`, "probe", 60_000)).toBe("claimed"); // no mark, no claim left
  });
});

describe.each(INBOX_STORES)("the inbox after an upgrade from id:event keys, on %s", (_name, makeStore) => {
  const inboxOn = (store: InboxStore, options: { dedupKey?: DedupKeyStrategy; legacyKeysBefore?: Date }) =>
    createInbox({ store, handler: () => {}, ...options });

  it("accepts a redelivery of an event the earlier version accepted once more, without legacyKeysBefore", async () => {
    const store = makeStore();
    await inboxOn(store, { dedupKey: "id+event" }).accept(asReceived(verified));
    expect(await inboxOn(store, {}).accept(asReceived(verified))).toBe("accepted");
  });

  it("with legacyKeysBefore, answers that redelivery as a duplicate: its change came before the upgrade", async () => {
    const store = makeStore();
    await inboxOn(store, { dedupKey: "id+event" }).accept(asReceived(verified));
    expect(await inboxOn(store, { legacyKeysBefore: UPGRADED_AT }).accept(asReceived(verified))).toBe("duplicate");
  });

  it("with legacyKeysBefore, accepts a change made after the upgrade whatever the earlier marks say", async () => {
    const store = makeStore();
    await inboxOn(store, { dedupKey: "id+event" }).accept(asReceived(verified));
    expect(await inboxOn(store, { legacyKeysBefore: UPGRADED_AT }).accept(asReceived(verifiedAgain))).toBe("accepted");
  });
});
