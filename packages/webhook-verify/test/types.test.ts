import type * as Spec from "@exchange-kit/types";
import { describe, expectTypeOf, it } from "vitest";
import type {
  PayinRefundReason,
  PayoutInReviewEvent,
  ReceivedWebhookEvent,
  UnknownWebhookEvent,
  WebhookEvent,
  WebhookEventOf,
} from "../src/index.js";
import { verifyWebhook } from "../src/index.js";

// Type-level behaviours: checked by `tsc` (pnpm lint) and by vitest's expectTypeOf at run time as no-ops.

type Wire<E> = Omit<E, "known">;

describe("event types", () => {
  it("narrow on known, then type, then event", () => {
    const handle = (event: ReceivedWebhookEvent): string => {
      if (!event.known) {
        expectTypeOf(event).toEqualTypeOf<UnknownWebhookEvent>();
        return event.unknownReason;
      }
      switch (event.type) {
        case "PAYOUT":
          expectTypeOf(event.metadata.client_reference_id).toEqualTypeOf<string | null>();
          if (event.event === "IN_REVIEW" && event.metadata.reason === "Request for information") {
            expectTypeOf(event.metadata.rfi_link).toEqualTypeOf<string>();
          }
          return event.event;
        case "PAYIN":
          if (event.event === "REFUNDED") expectTypeOf(event.metadata.refund_reason).toEqualTypeOf<PayinRefundReason>();
          return event.event;
        case "CUSTOMER":
        case "BANK":
        case "EDD":
          return event.event;
        default:
          expectTypeOf(event).toBeNever();
          return event;
      }
    };
    expectTypeOf(handle).toBeFunction();
  });

  it("WebhookEventOf picks one pair", () => {
    expectTypeOf<WebhookEventOf<"PAYOUT", "IN_REVIEW">>().toEqualTypeOf<PayoutInReviewEvent>();
  });

  it("strict verification returns catalog events only", () => {
    // Never called: only the types of these calls are checked.
    const strict = () => verifyWebhook({ body: "", headers: {}, apiKey: "k", apiSecret: "s", strict: true });
    const lenient = () => verifyWebhook({ body: "", headers: {}, apiKey: "k", apiSecret: "s" });
    expectTypeOf(strict).returns.resolves.toEqualTypeOf<WebhookEvent>();
    expectTypeOf(lenient).returns.resolves.toEqualTypeOf<ReceivedWebhookEvent>();
  });

  it("every catalog event, without `known`, is the spec's generated type of that event", () => {
    expectTypeOf<Wire<WebhookEventOf<"CUSTOMER", "VERIFIED">>>().toExtend<Spec.CustomerVerifiedEvent>();
    expectTypeOf<Wire<WebhookEventOf<"CUSTOMER", "FAILED">>>().toExtend<Spec.CustomerFailedEvent>();
    expectTypeOf<Wire<WebhookEventOf<"BANK", "VERIFIED">>>().toExtend<Spec.BankVerifiedEvent>();
    expectTypeOf<Wire<WebhookEventOf<"BANK", "FAILED">>>().toExtend<Spec.BankFailedEvent>();
    expectTypeOf<Wire<WebhookEventOf<"PAYIN", "SUCCESS">>>().toExtend<Spec.PayinSuccessEvent>();
    expectTypeOf<Wire<WebhookEventOf<"PAYIN", "FAILED">>>().toExtend<Spec.PayinFailedEvent>();
    expectTypeOf<Wire<WebhookEventOf<"PAYIN", "REFUND_INITIATED">>>().toExtend<Spec.PayinRefundInitiatedEvent>();
    expectTypeOf<Wire<WebhookEventOf<"PAYIN", "REFUNDED">>>().toExtend<Spec.PayinRefundedEvent>();
    expectTypeOf<Wire<WebhookEventOf<"PAYIN", "ON_HOLD">>>().toExtend<Spec.PayinOnHoldEvent>();
    expectTypeOf<Wire<WebhookEventOf<"PAYOUT", "SUCCESS">>>().toExtend<Spec.PayoutSuccessEvent>();
    expectTypeOf<Wire<WebhookEventOf<"PAYOUT", "FAILED">>>().toExtend<Spec.PayoutFailedEvent>();
    expectTypeOf<Wire<WebhookEventOf<"PAYOUT", "REFUNDED">>>().toExtend<Spec.PayoutRefundedEvent>();
    expectTypeOf<Wire<WebhookEventOf<"PAYOUT", "IN_REVIEW">>>().toExtend<Spec.PayoutInReviewEvent>();
    expectTypeOf<Wire<WebhookEventOf<"EDD", "VERIFIED">>>().toExtend<Spec.EddVerifiedEvent>();
    expectTypeOf<Wire<WebhookEventOf<"EDD", "FAILED">>>().toExtend<Spec.EddFailedEvent>();
  });

  it("covers exactly the spec's (type, event) pairs", () => {
    type Pairs<E> = E extends { type: infer T extends string; event: infer V extends string } ? `${T} ${V}` : never;
    expectTypeOf<Pairs<WebhookEvent>>().toEqualTypeOf<Pairs<Spec.WebhookEvent>>();
  });
});
