import { serve } from "@hono/node-server";
import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  createDeduplicator,
  createInbox,
  createWebhookHandler,
  type Inbox,
  type InboxOptions,
  type InboxStore,
  InboxStoreError,
  memoryInbox,
  type ReceivedWebhookEvent,
  type WebhookHandlerOptions,
} from "../src/index.js";
import { createNodeWebhookHandler } from "../src/node.js";
import { payoutInReview } from "./support/fixtures.js";
import { closed, delivery, listening, settings } from "./support/receiver.js";
import { urlOf } from "./support/servers.js";
import { until } from "./support/wait.js";

// Both adapters given a durable inbox in place of onEvent, on real servers.

let server: Server | undefined;
const inboxes: Inbox[] = [];
afterEach(async () => {
  if (server) await closed(server);
  server = undefined;
  for (const inbox of inboxes.splice(0)) await inbox.stop();
});

const ADAPTERS = {
  "createWebhookHandler (Fetch)": async (options: WebhookHandlerOptions & { inbox: Inbox }) => {
    const handler = createWebhookHandler(options);
    server = await listening(serve({ fetch: (request) => handler(request), hostname: "127.0.0.1", port: 0 }) as Server);
    return `${urlOf(server)}/webhooks/exchange`;
  },
  "createNodeWebhookHandler (node:http)": async (options: WebhookHandlerOptions & { inbox: Inbox }) => {
    server = await listening(createServer(createNodeWebhookHandler(options)).listen(0, "127.0.0.1"));
    return `${urlOf(server)}/webhooks/exchange`;
  },
};

function inboxOf(options: Partial<InboxOptions> = {}) {
  const ran: ReceivedWebhookEvent[] = [];
  const inbox = createInbox({ store: memoryInbox(), pollIntervalMs: 5, handler: (e) => void ran.push(e), ...options });
  inboxes.push(inbox);
  return { inbox, ran };
}

async function answer(response: Response) {
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() };
}

describe.each(Object.entries(ADAPTERS))("%s with an inbox", (_name, start) => {
  it("answers 200 once the event is stored, and the inbox's worker runs it", async () => {
    const { inbox, ran } = inboxOf();
    const url = await start({ ...settings, inbox });
    expect(await answer(await fetch(url, await delivery()))).toEqual({
      status: 200,
      retryAfter: null,
      body: { received: true },
    });
    expect(ran).toEqual([]); // stored, not run: no worker started yet
    inbox.start();
    await until(() => ran.length === 1);
    expect(ran[0]).toEqual({ ...payoutInReview, known: true });
  });

  it("answers a redelivery of a stored event as a duplicate", async () => {
    const { inbox } = inboxOf();
    const url = await start({ ...settings, inbox });
    const init = await delivery();
    await fetch(url, init);
    expect(await answer(await fetch(url, init))).toEqual({
      status: 200,
      retryAfter: null,
      body: { received: true, duplicate: true },
    });
  });

  it("answers 503 INBOX_UNAVAILABLE with Retry-After when the inbox cannot store the event", async () => {
    const broken: InboxStore = { ...memoryInbox(), append: () => Promise.reject(new Error("connection refused")) };
    const errors: unknown[] = [];
    const { inbox } = inboxOf({ store: broken });
    const url = await start({ ...settings, inbox, onError: (error) => void errors.push(error) });
    expect(await answer(await fetch(url, await delivery()))).toEqual({
      status: 503,
      retryAfter: "1",
      body: { error: "INBOX_UNAVAILABLE" },
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(InboxStoreError);
    expect(errors[0]).toMatchObject({ operation: "append", timedOut: false, cause: new Error("connection refused") });
  });

  it("answers 503 once the store timeout passes when the inbox's store never answers", async () => {
    const hanging: InboxStore = { ...memoryInbox(), append: () => new Promise(() => {}) };
    const errors: unknown[] = [];
    const { inbox } = inboxOf({ store: hanging, storeTimeoutMs: 50 });
    const url = await start({ ...settings, inbox, onError: (error) => void errors.push(error) });
    expect((await answer(await fetch(url, await delivery()))).status).toBe(503);
    expect(errors[0]).toMatchObject({ name: "InboxStoreError", operation: "append", timedOut: true });
  });
});

describe("the adapters' options", () => {
  it("refuse an inbox together with onEvent or a deduplicator, and a missing onEvent without an inbox", () => {
    const { inbox } = inboxOf();
    const onEvent = () => {};
    const deduplicator = createDeduplicator();
    for (const create of [createWebhookHandler, createNodeWebhookHandler] as ((...args: unknown[]) => unknown)[]) {
      expect(() => create({ ...settings, inbox }, onEvent)).toThrow(/either an inbox .* or onEvent/);
      expect(() => create({ ...settings, inbox, deduplicator })).toThrow(/either an inbox .* or a deduplicator/);
      expect(() => create({ ...settings })).toThrow(/pass onEvent/);
      expect(() => create({ ...settings, inbox: {} })).toThrow(/Inbox from createInbox/);
    }
  });
});
