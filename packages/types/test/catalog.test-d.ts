// The catalog's unions against openapi-typescript's types of the same spec: two readings that must agree, so a
// generator that misreads one of them fails here (run by `vitest --typecheck` and by `tsc --noEmit` in `pnpm lint`).
import { describe, expectTypeOf, it } from "vitest";
import type {
  BankAccountStatus,
  CustomerFailedEvent,
  PayinOrder,
  PayinRefundedEvent,
  PayoutInReviewEvent,
  PayoutOrder,
  RecordStatus,
  RecordWithStatus,
  WebhookEventName,
  WebhookEventOf,
  WebhookEventType,
  webhookEventTypes,
  WebhookMetadataValue,
} from "../src/index.js";

describe("the catalog types", () => {
  it("list the webhook event types of the WebhookEvent union", () => {
    expectTypeOf<(typeof webhookEventTypes)[number]>().toEqualTypeOf<WebhookEventType>();
  });

  it("give each type the events of its members of the WebhookEvent union", () => {
    type FromCatalog = { [T in WebhookEventType]: WebhookEventName<T> };
    type FromUnion = { [T in WebhookEventType]: WebhookEventOf<T>["event"] };
    expectTypeOf<FromCatalog>().toEqualTypeOf<FromUnion>();
    expectTypeOf<WebhookEventName>().toEqualTypeOf<WebhookEventOf<WebhookEventType>["event"]>();
  });

  it("give the enumerated reasons the unions of the event types' metadata", () => {
    expectTypeOf<WebhookMetadataValue<"CUSTOMER", "FAILED", "failure_reason">>().toEqualTypeOf<
      CustomerFailedEvent["metadata"]["failure_reason"]
    >();
    expectTypeOf<WebhookMetadataValue<"PAYIN", "REFUNDED", "refund_reason">>().toEqualTypeOf<
      PayinRefundedEvent["metadata"]["refund_reason"]
    >();
    expectTypeOf<WebhookMetadataValue<"PAYOUT", "IN_REVIEW", "reason">>().toEqualTypeOf<
      PayoutInReviewEvent["metadata"]["reason"]
    >();
  });

  it("type a free-text metadata key as string", () => {
    expectTypeOf<WebhookMetadataValue<"PAYOUT", "REFUNDED", "refund_reason">>().toEqualTypeOf<string>();
  });

  it("give each record's statuses the union of its status property", () => {
    expectTypeOf<RecordStatus<"PayoutOrder">>().toEqualTypeOf<PayoutOrder["status"]>();
    expectTypeOf<RecordStatus<"PayinOrder">>().toEqualTypeOf<PayinOrder["status"]>();
    expectTypeOf<RecordStatus<"BankAccount">>().toEqualTypeOf<BankAccountStatus>();
    expectTypeOf<"Customer">().not.toExtend<RecordWithStatus>();
  });
});
