import { serve } from "@hono/node-server";
import { webhookEventsByType } from "@exchange-kit/types";
import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  createInbox,
  createWebhookHandler,
  createWebhookRouter,
  type Inbox,
  type InboxContext,
  memoryInbox,
  type ReceivedWebhookEvent,
  signTestWebhook,
  verifyWebhook,
  type WebhookHandlerOptions,
  WebhookRouteError,
} from "../src/index.js";
import { createNodeWebhookHandler } from "../src/node.js";
import { type RouteSelector, routeError, selects } from "../src/router.js";
import { apiKey, apiSecret, payoutInReview } from "./support/fixtures.js";
import { closed, delivery, listening, Recorder, settings } from "./support/receiver.js";
import { urlOf } from "./support/servers.js";
import { until } from "./support/wait.js";

// createWebhookRouter: which handlers an event reaches, in what order, what a throwing handler does, what
// registration refuses, and the router plugged into both adapters and an inbox on real servers.

const ID = "c4b3a291-8f7e-4d6c-9b5a-4f3e2d1c0b9a";
const payoutSuccess = {
  type: "PAYOUT",
  id: ID,
  event: "SUCCESS",
  timestamp: "2026-03-01T11:02:40Z",
  metadata: { client_reference_id: "payout-000789", utr: "UTR4412345" },
  known: true,
} as ReceivedWebhookEvent;
const payoutFailed = {
  ...payoutSuccess,
  event: "FAILED",
  metadata: { client_reference_id: null, failure_reason: "Payout failed" },
} as ReceivedWebhookEvent;
const customerVerified = {
  ...payoutSuccess,
  type: "CUSTOMER",
  event: "VERIFIED",
  metadata: {},
} as ReceivedWebhookEvent;
const unknownEvent: ReceivedWebhookEvent = {
  type: "PAYOUT",
  id: ID,
  event: "CANCELLED",
  timestamp: "2026-03-01T11:02:40Z",
  metadata: {},
  known: false,
  unknownReason: "PAYOUT has no event CANCELLED in the catalog",
};

/** The order handlers ran in, each as `name` or `name:<type> <event>`. */
function journal() {
  const ran: string[] = [];
  const record = (name: string) => (event: ReceivedWebhookEvent) =>
    void ran.push(`${name}:${event.type} ${event.event}`);
  return { ran, record };
}

describe("createWebhookRouter", () => {
  it("runs a (type, event) handler with the event and the caller's context", async () => {
    const calls: [ReceivedWebhookEvent, unknown][] = [];
    const router = createWebhookRouter().on("PAYOUT", "SUCCESS", (event, context) => void calls.push([event, context]));
    await router(payoutSuccess, { attempt: 1 });
    expect(calls).toEqual([[payoutSuccess, { attempt: 1 }]]);
  });

  it("does not run a (type, event) handler for another event of the same type", async () => {
    const { ran, record } = journal();
    await createWebhookRouter().on("PAYOUT", "SUCCESS", record("success"))(payoutFailed);
    expect(ran).toEqual([]);
  });

  it("runs a type's handler for every catalog event of that type, and not for another type", async () => {
    const { ran, record } = journal();
    const router = createWebhookRouter().on("PAYOUT", record("payouts"));
    for (const event of [payoutSuccess, payoutFailed, customerVerified]) await router(event);
    expect(ran).toEqual(["payouts:PAYOUT SUCCESS", "payouts:PAYOUT FAILED"]);
  });

  it("runs onAny for every event, the catalog's and the unknown ones", async () => {
    const { ran, record } = journal();
    const router = createWebhookRouter().onAny(record("any"));
    for (const event of [payoutSuccess, unknownEvent]) await router(event);
    expect(ran).toEqual(["any:PAYOUT SUCCESS", "any:PAYOUT CANCELLED"]);
  });

  it("runs onUnknown only for events the catalog does not know", async () => {
    const { ran, record } = journal();
    const router = createWebhookRouter().onUnknown(record("unknown"));
    for (const event of [payoutSuccess, unknownEvent]) await router(event);
    expect(ran).toEqual(["unknown:PAYOUT CANCELLED"]);
  });

  it("sends a known pair whose metadata breaks the catalog to onUnknown, not to that pair's handler", async () => {
    const { body, headers } = await signTestWebhook({
      event: { ...payoutInReview, metadata: { ...payoutInReview.metadata, reason: "A reason added later" } },
      apiKey,
      apiSecret,
    });
    const event = await verifyWebhook({ body, headers, apiKey, apiSecret });
    const { ran, record } = journal();
    await createWebhookRouter().on("PAYOUT", "IN_REVIEW", record("pair")).onUnknown(record("unknown"))(event);
    expect(ran).toEqual(["unknown:PAYOUT IN_REVIEW"]);
  });

  it("runs every handler an event matches in registration order, each finished before the next starts", async () => {
    const ran: string[] = [];
    const slow = (name: string) => async () => {
      ran.push(`${name} started`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      ran.push(`${name} ended`);
    };
    const router = createWebhookRouter()
      .onAny(slow("any"))
      .on("PAYOUT", "SUCCESS", slow("pair"))
      .on("PAYOUT", slow("type"))
      .on("PAYOUT", "SUCCESS", slow("pair again"));
    await router(payoutSuccess);
    expect(ran).toEqual(["any", "pair", "type", "pair again"].flatMap((name) => [`${name} started`, `${name} ended`]));
  });

  it("stops at the first handler that throws and rejects with its error", async () => {
    const { ran, record } = journal();
    const failure = new Error("ledger unavailable");
    const router = createWebhookRouter()
      .on("PAYOUT", "SUCCESS", record("first"))
      .on("PAYOUT", "SUCCESS", () => Promise.reject(failure))
      .on("PAYOUT", "SUCCESS", record("after"));
    await expect(router(payoutSuccess)).rejects.toBe(failure);
    expect(ran).toEqual(["first:PAYOUT SUCCESS"]);
  });

  it("resolves without running anything for an event no handler takes", async () => {
    const { ran, record } = journal();
    await expect(createWebhookRouter().on("CUSTOMER", record("customers"))(payoutSuccess)).resolves.toBeUndefined();
    expect(ran).toEqual([]);
  });

  it("does not run, for the event in progress, a handler registered while it runs", async () => {
    const { ran, record } = journal();
    const router = createWebhookRouter();
    router.onAny(() => void router.onAny(record("late")));
    await router(payoutSuccess);
    expect(ran).toEqual([]);
    await router(payoutSuccess);
    expect(ran).toEqual(["late:PAYOUT SUCCESS"]);
  });
});

describe("registration", () => {
  it("throws a WebhookRouteError UNKNOWN_EVENT for PAYOUT PROCESSING, which is never sent as an event", () => {
    const register = () => createWebhookRouter().on("PAYOUT", "PROCESSING" as "SUCCESS", () => {});
    expect(register).toThrow(WebhookRouteError);
    expect(register).toThrow(
      'PAYOUT has no event "PROCESSING" in the event catalog (SUCCESS, FAILED, REFUNDED, IN_REVIEW): a handler ' +
        "for it would never run; events the catalog does not know reach onUnknown and onAny. PROCESSING is a " +
        "status records pass through, never sent as an event",
    );
  });

  it("throws a WebhookRouteError UNKNOWN_TYPE for a type the catalog does not have", () => {
    let error: unknown;
    try {
      createWebhookRouter().on("WALLET" as "PAYOUT", () => {});
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(WebhookRouteError);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ code: "UNKNOWN_TYPE", type: "WALLET", event: undefined });
    expect((error as Error).message).toMatch(/^no webhook event type "WALLET" in the event catalog \(CUSTOMER, BANK/);
  });

  it("throws a TypeError naming the registration when the handler is not a function", () => {
    const router = createWebhookRouter();
    expect(() => router.on("PAYOUT", "SUCCESS", undefined as never)).toThrow(
      'router.on("PAYOUT", "SUCCESS") needs a handler function',
    );
    expect(() => router.on("PAYOUT", "not a handler" as never)).toThrow(WebhookRouteError);
    expect(() => router.onAny(null as never)).toThrow("router.onAny needs a handler function");
    expect(() => router.onUnknown({} as never)).toThrow("router.onUnknown needs a handler function");
  });

  it.each(Object.entries(webhookEventsByType).flatMap(([type, events]) => events.map((event) => [type, event])))(
    "accepts %s %s, a pair of the spec's catalog",
    (type, event) => {
      expect(routeError(type, event)).toBeUndefined();
      expect(routeError(type)).toBeUndefined();
    },
  );

  it.each([
    ["PAYOUT", "PROCESSING", "UNKNOWN_EVENT"],
    ["CUSTOMER", "SUCCESS", "UNKNOWN_EVENT"],
    ["PAYOUT", "success", "UNKNOWN_EVENT"],
    ["PAYOUT", "toString", "UNKNOWN_EVENT"],
    ["PAYOUT", 42, "UNKNOWN_EVENT"],
    ["WALLET", "SUCCESS", "UNKNOWN_TYPE"],
    ["__proto__", undefined, "UNKNOWN_TYPE"],
    [undefined, undefined, "UNKNOWN_TYPE"],
  ])("refuses %s %s as %s", (type, event, code) => {
    expect(routeError(type, event)).toMatchObject({ name: "WebhookRouteError", code });
  });
});

describe("selects", () => {
  const table: [string, RouteSelector, ReceivedWebhookEvent, boolean][] = [
    ["a pair, its event", { kind: "pair", type: "PAYOUT", event: "SUCCESS" }, payoutSuccess, true],
    ["a pair, another event of the type", { kind: "pair", type: "PAYOUT", event: "SUCCESS" }, payoutFailed, false],
    ["a pair, another type", { kind: "pair", type: "PAYOUT", event: "VERIFIED" }, customerVerified, false],
    [
      "a pair, an unknown event of that name",
      { kind: "pair", type: "PAYOUT", event: "CANCELLED" },
      unknownEvent,
      false,
    ],
    ["a type, its event", { kind: "type", type: "PAYOUT" }, payoutFailed, true],
    ["a type, another type", { kind: "type", type: "PAYOUT" }, customerVerified, false],
    ["a type, an unknown event of it", { kind: "type", type: "PAYOUT" }, unknownEvent, false],
    ["any, a known event", { kind: "any" }, payoutSuccess, true],
    ["any, an unknown event", { kind: "any" }, unknownEvent, true],
    ["unknown, a known event", { kind: "unknown" }, payoutSuccess, false],
    ["unknown, an unknown event", { kind: "unknown" }, unknownEvent, true],
  ];
  it.each(table)("%s", (_case, selector, event, expected) => {
    expect(selects(selector, event)).toBe(expected);
  });
});

let server: Server | undefined;
const inboxes: Inbox[] = [];
afterEach(async () => {
  if (server) await closed(server);
  server = undefined;
  for (const inbox of inboxes.splice(0)) await inbox.stop();
});

const ADAPTERS = {
  "createWebhookHandler (Fetch)": async (
    options: WebhookHandlerOptions,
    onEvent: (event: ReceivedWebhookEvent) => unknown,
  ) => {
    const handler = createWebhookHandler(options, onEvent);
    server = await listening(serve({ fetch: (request) => handler(request), hostname: "127.0.0.1", port: 0 }) as Server);
    return `${urlOf(server)}/webhooks/exchange`;
  },
  "createNodeWebhookHandler (node:http)": async (
    options: WebhookHandlerOptions,
    onEvent: (event: ReceivedWebhookEvent) => unknown,
  ) => {
    server = await listening(createServer(createNodeWebhookHandler(options, onEvent)).listen(0, "127.0.0.1"));
    return `${urlOf(server)}/webhooks/exchange`;
  },
};

describe.each(Object.entries(ADAPTERS))("a router as onEvent of %s", (_name, start) => {
  it("hands a signed delivery to the handler registered for its type and event", async () => {
    const recorder = new Recorder();
    const router = createWebhookRouter()
      .on("PAYOUT", "IN_REVIEW", (event) => recorder.onEvent(event))
      .on("PAYOUT", "SUCCESS", () => recorder.onError(new Error("the SUCCESS handler ran for IN_REVIEW")));
    const url = await start({ ...settings, onError: recorder.onError }, router);
    expect((await fetch(url, await delivery())).status).toBe(200);
    await recorder.until(() => recorder.events.length === 1);
    expect(recorder.events).toEqual([{ ...payoutInReview, known: true }]);
    expect(recorder.errors).toEqual([]);
  });

  it("reports a throwing handler to onError and frees the event, so that a redelivery runs it again", async () => {
    const recorder = new Recorder();
    let runs = 0;
    const router = createWebhookRouter().on("PAYOUT", "IN_REVIEW", (event) => {
      if (++runs === 1) throw new Error("ledger unavailable");
      recorder.onEvent(event);
    });
    const url = await start({ ...settings, onError: recorder.onError }, router);
    const init = await delivery();
    expect((await fetch(url, init)).status).toBe(200);
    await recorder.until(() => recorder.errors.length === 1);
    expect(recorder.errors[0]).toMatchObject({ message: "ledger unavailable" });
    expect(await (await fetch(url, init)).json()).toEqual({ received: true }); // not a duplicate: it failed
    await recorder.until(() => recorder.events.length === 1);
    expect(runs).toBe(2);
  });
});

describe("a router as an inbox's handler", () => {
  it("gives its handlers the inbox's context, and a throwing handler fails the run, which is retried", async () => {
    const runs: [string, InboxContext][] = [];
    const completed: number[] = [];
    const router = createWebhookRouter<InboxContext>()
      .on("PAYOUT", "IN_REVIEW", (event, context) => void runs.push([event.id, context]))
      .on("PAYOUT", "IN_REVIEW", (_event, { attempt }) => {
        if (attempt === 1) throw new Error("ledger unavailable");
      })
      .onAny((_event, { attempt }) => void completed.push(attempt));
    const errors: unknown[] = [];
    const inbox = createInbox({
      store: memoryInbox(),
      handler: router,
      retryDelaySeconds: 0.01,
      pollIntervalMs: 5,
      onError: (error) => void errors.push(error),
    });
    inboxes.push(inbox);
    const handler = createWebhookHandler({ ...settings, inbox });
    server = await listening(serve({ fetch: (request) => handler(request), hostname: "127.0.0.1", port: 0 }) as Server);
    expect((await fetch(`${urlOf(server)}/webhooks/exchange`, await delivery())).status).toBe(200);
    inbox.start();
    await until(() => completed.length === 1);
    const key = `${payoutInReview.id}:IN_REVIEW:${payoutInReview.timestamp}`;
    expect(runs).toEqual([
      [payoutInReview.id, { attempt: 1, key }],
      [payoutInReview.id, { attempt: 2, key }],
    ]);
    expect(completed).toEqual([2]);
    expect(errors).toMatchObject([{ message: "ledger unavailable" }]);
  });
});
