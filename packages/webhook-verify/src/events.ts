import type { WebhookEvent as SpecWebhookEvent, WebhookMetadataValue, webhookMetadataRules } from "@exchange-kit/types";

// The event catalog of the interface document as types, derived from the spec's generated event types (so an
// event the spec adds is in the union without an edit here). Each (type, event) pair is one member of
// WebhookEvent, so a switch on `type` then `event` narrows `metadata`. `known: true` is added by verifyWebhook so
// that the catalog's events and UnknownWebhookEvent tell themselves apart by one check.

/** Extra context the service may add to any event's metadata beyond the documented keys. */
export type OpenMetadata = { [key: string]: unknown };

interface EventOf<Type extends string, Event extends string, Metadata> {
  /** Always true: the pair is in the catalog and its metadata matched it. */
  known: true;
  /** The kind of object that changed. */
  type: Type;
  /** The ID (UUID) of the customer, bank account, payin, payout or EDD record; fetch the object by it. */
  id: string;
  /** The status the object moved to. */
  event: Event;
  /** ISO 8601 time of the change. */
  timestamp: string;
  metadata: Metadata & OpenMetadata;
}

type Catalog = typeof webhookMetadataRules;

/** The metadata keys of a pair that the spec requires under a condition (its if/then), with the condition. */
type Conditions<Type, Event> = Type extends keyof Catalog
  ? Event extends keyof Catalog[Type]
    ? {
        [K in keyof Catalog[Type][Event]]: Catalog[Type][Event][K] extends {
          readonly requiredWhen: { readonly key: infer When extends string; readonly value: infer Value };
        }
          ? { key: K & string; when: When; value: Value }
          : never;
      }[keyof Catalog[Type][Event]]
    : never
  : never;

/**
 * The spec's metadata type with its if/then as a union: the keys a condition requires are required strings
 * while the condition holds (e.g. `rfi_link` when `reason` is "Request for information").
 */
type Conditioned<Metadata, Condition> = [Condition] extends [never]
  ? Metadata
  : Condition extends { key: infer Key extends string; when: infer When extends string; value: infer Value }
    ? Metadata &
        (
          | ({ [P in When]: Value } & { [P in Key]: string })
          | { [P in When]: Exclude<Metadata[When & keyof Metadata], Value> }
        )
    : Metadata;

/** A spec event as verifyWebhook returns it. */
type Verified<Event> = Event extends SpecWebhookEvent
  ? EventOf<Event["type"], Event["event"], Conditioned<Event["metadata"], Conditions<Event["type"], Event["event"]>>>
  : never;

/** Every event of the catalog, discriminated by `type` and then `event`. */
export type WebhookEvent = Verified<SpecWebhookEvent>;

/** The catalog event with this type and event, e.g. `WebhookEventOf<"PAYOUT", "IN_REVIEW">`. */
export type WebhookEventOf<
  Type extends WebhookEvent["type"],
  Event extends Extract<WebhookEvent, { type: Type }>["event"],
> = Extract<WebhookEvent, { type: Type; event: Event }>;

export type CustomerFailureReason = WebhookMetadataValue<"CUSTOMER", "FAILED", "failure_reason">;
export type BankFailureReason = WebhookMetadataValue<"BANK", "FAILED", "failure_reason">;
export type PayinRefundReason = WebhookMetadataValue<"PAYIN", "REFUNDED", "refund_reason">;

/** KYC passed; the customer can link banks and transact. */
export type CustomerVerifiedEvent = WebhookEventOf<"CUSTOMER", "VERIFIED">;
/** KYC failed or the account was suspended. */
export type CustomerFailedEvent = WebhookEventOf<"CUSTOMER", "FAILED">;
/** The bank account or UPI ID is ready for orders. */
export type BankVerifiedEvent = WebhookEventOf<"BANK", "VERIFIED">;
/** Bank account verification failed. */
export type BankFailedEvent = WebhookEventOf<"BANK", "FAILED">;
/** Payment received, crypto released. */
export type PayinSuccessEvent = WebhookEventOf<"PAYIN", "SUCCESS">;
/** The payin failed. The list of reasons is not published, so it is an open string. */
export type PayinFailedEvent = WebhookEventOf<"PAYIN", "FAILED">;
/** The refund started. */
export type PayinRefundInitiatedEvent = WebhookEventOf<"PAYIN", "REFUND_INITIATED">;
/** The fiat was returned to its source. */
export type PayinRefundedEvent = WebhookEventOf<"PAYIN", "REFUNDED">;
/** The payment was flagged and is held for review. */
export type PayinOnHoldEvent = WebhookEventOf<"PAYIN", "ON_HOLD">;
/** Funds delivered to the beneficiary. */
export type PayoutSuccessEvent = WebhookEventOf<"PAYOUT", "SUCCESS">;
/** The payout failed; the reason is always the generic text. */
export type PayoutFailedEvent = WebhookEventOf<"PAYOUT", "FAILED">;
/** The payout amount was returned. The set of reasons is not published. */
export type PayoutRefundedEvent = WebhookEventOf<"PAYOUT", "REFUNDED">;
/**
 * Held for compliance review, or for a request for information: then
 * `rfi_link` is the form the customer must complete.
 */
export type PayoutInReviewEvent = WebhookEventOf<"PAYOUT", "IN_REVIEW">;
/** EDD passed; higher limits. */
export type EddVerifiedEvent = WebhookEventOf<"EDD", "VERIFIED">;
/** EDD failed; standard limits remain. */
export type EddFailedEvent = WebhookEventOf<"EDD", "FAILED">;

export type CustomerEvent = Extract<WebhookEvent, { type: "CUSTOMER" }>;
export type BankEvent = Extract<WebhookEvent, { type: "BANK" }>;
export type PayinEvent = Extract<WebhookEvent, { type: "PAYIN" }>;
export type PayoutEvent = Extract<WebhookEvent, { type: "PAYOUT" }>;
export type EddEvent = Extract<WebhookEvent, { type: "EDD" }>;

/**
 * A delivery that verified but is not in the catalog: a new type or status
 * the service started sending, or a known pair whose metadata does not match
 * the catalog. Returned instead of thrown (unless `strict`) so that new
 * events never take a receiver down; check `known` before switching on `type`.
 */
export interface UnknownWebhookEvent {
  known: false;
  type: string;
  /** The ID of the object that changed (a UUID). */
  id: string;
  event: string;
  timestamp: string;
  metadata: OpenMetadata;
  /** Why the event is not one of the catalog's, for logs. */
  unknownReason: string;
}

/** What `verifyWebhook` returns unless `strict`: a catalog event, or an unknown one. */
export type ReceivedWebhookEvent = WebhookEvent | UnknownWebhookEvent;
