import { describe, expect, expectTypeOf, it } from "vitest";
import {
  createInbox,
  createWebhookHandler,
  createWebhookRouter,
  type CustomerFailureReason,
  type InboxContext,
  type InboxHandler,
  memoryInbox,
  type PayoutEvent,
  type PayoutFailedEvent,
  type PayoutSuccessEvent,
  type ReceivedWebhookEvent,
  type UnknownWebhookEvent,
  type WebhookEventHandler,
  type WebhookEventStatus,
  WebhookRouteError,
} from "../src/index.js";
import { createNodeWebhookHandler } from "../src/node.js";
import { settings } from "./support/receiver.js";

// Type-level behaviours of the router: checked by `tsc` (the package's lint, which includes test/), where every
// `@ts-expect-error` line must be an error; vitest runs the file too, so the lines the types refuse are also
// shown to throw at registration.

describe("the router's types", () => {
  it("types a (type, event) handler's event and metadata from the catalog", () => {
    createWebhookRouter()
      .on("PAYOUT", "SUCCESS", (event) => {
        expectTypeOf(event).toEqualTypeOf<PayoutSuccessEvent>();
        expectTypeOf(event.metadata.utr).toEqualTypeOf<string>();
        expectTypeOf(event.metadata.client_reference_id).toEqualTypeOf<string | null>();
      })
      .on("PAYOUT", "IN_REVIEW", (event) => {
        expectTypeOf(event.metadata.reason).toEqualTypeOf<"Request for information" | "Under compliance review">();
        if (event.metadata.reason === "Request for information") {
          expectTypeOf(event.metadata.rfi_link).toEqualTypeOf<string>();
        }
      })
      .on("CUSTOMER", "FAILED", (event) => {
        expectTypeOf(event.metadata.failure_reason).toEqualTypeOf<CustomerFailureReason>();
      });
  });

  it("types a handler for a whole type as the union of that type's events", () => {
    createWebhookRouter().on("PAYOUT", (event) => {
      expectTypeOf(event).toEqualTypeOf<PayoutEvent>();
      expectTypeOf(event.event).toEqualTypeOf<WebhookEventStatus<"PAYOUT">>();
      expectTypeOf<WebhookEventStatus<"PAYOUT">>().toEqualTypeOf<"SUCCESS" | "FAILED" | "REFUNDED" | "IN_REVIEW">();
    });
  });

  it("types onAny's event as any received event and onUnknown's as an unknown one", () => {
    createWebhookRouter()
      .onAny((event) => expectTypeOf(event).toEqualTypeOf<ReceivedWebhookEvent>())
      .onUnknown((event) => expectTypeOf(event).toEqualTypeOf<UnknownWebhookEvent>());
  });

  it("refuses, as a type error, an event the catalog does not have for the type", () => {
    const router = createWebhookRouter();
    // @ts-expect-error PROCESSING is never sent as an event
    expect(() => router.on("PAYOUT", "PROCESSING", () => {})).toThrow(WebhookRouteError);
    // @ts-expect-error CUSTOMER has VERIFIED and FAILED only
    expect(() => router.on("CUSTOMER", "SUCCESS", () => {})).toThrow(WebhookRouteError);
  });

  it("refuses, as a type error, a type the catalog does not have", () => {
    const router = createWebhookRouter();
    // @ts-expect-error WALLET is not a webhook event type
    expect(() => router.on("WALLET", () => {})).toThrow(WebhookRouteError);
    // @ts-expect-error types are upper case, as sent
    expect(() => router.on("payout", "SUCCESS", () => {})).toThrow(WebhookRouteError);
  });

  it("refuses, as a type error, a handler written for another event", () => {
    const failed = (event: PayoutFailedEvent) => event.metadata.failure_reason;
    // @ts-expect-error a PAYOUT SUCCESS event is not a PayoutFailedEvent
    createWebhookRouter().on("PAYOUT", "SUCCESS", failed);
  });

  it("fits onEvent of both adapters, strict or not", () => {
    const router = createWebhookRouter();
    expectTypeOf(router).toExtend<WebhookEventHandler>();
    createWebhookHandler(settings, router);
    createWebhookHandler({ ...settings, strict: true }, router);
    createNodeWebhookHandler(settings, router);
  });

  it("fits an inbox's handler, and with InboxContext its handlers read the attempt", () => {
    const plain = createWebhookRouter();
    expectTypeOf(plain).toExtend<InboxHandler>();
    const withContext = createWebhookRouter<InboxContext>().on("BANK", "VERIFIED", (_event, context) => {
      expectTypeOf(context).toEqualTypeOf<InboxContext>();
      expectTypeOf(context.attempt).toEqualTypeOf<number>();
    });
    expectTypeOf(withContext).toExtend<InboxHandler>();
    createInbox({ store: memoryInbox(), handler: withContext });
  });

  it("refuses, as a type error, a router whose handlers need the inbox's context as onEvent (which has none)", () => {
    const router = createWebhookRouter<InboxContext>();
    expectTypeOf(router).not.toExtend<WebhookEventHandler>();
    // @ts-expect-error onEvent is called without a context
    createWebhookHandler(settings, router);
  });
});
