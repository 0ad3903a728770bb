// The event catalog of the interface document as types. Each (type, event)
// pair is one member of WebhookEvent, so a switch on `type` then `event`
// narrows `metadata`. `known: true` is added by verifyWebhook so that the
// catalog's events and UnknownWebhookEvent tell themselves apart by one check.

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

export type CustomerFailureReason =
  | "DOCUMENT_VERIFICATION_FAILED"
  | "TAX_VERIFICATION_FAILED"
  | "ADDITIONAL_INFO_VERIFICATION_FAILED"
  | "KYC_FAILED";
export type BankFailureReason = "ACCOUNT_TYPE_NRE" | "PENNY_DROP_FAILED" | "NAME_MISMATCH" | "BANK_RISK_CHECK_FAILED";
export type PayinRefundReason = "INCORRECT_AMOUNT" | "PAYMENT_FROM_NON_WHITELISTED_ACCOUNT" | "THIRD_PARTY_PAYMENT";

/** Present on every payout event: the value given at payout creation, or null. */
interface PayoutReference {
  client_reference_id: string | null;
}

/** KYC passed; the customer can link banks and transact. */
export type CustomerVerifiedEvent = EventOf<"CUSTOMER", "VERIFIED", {}>;
/** KYC failed or the account was suspended. */
export type CustomerFailedEvent = EventOf<"CUSTOMER", "FAILED", { failure_reason: CustomerFailureReason }>;
/** The bank account or UPI ID is ready for orders. */
export type BankVerifiedEvent = EventOf<"BANK", "VERIFIED", {}>;
/** Bank account verification failed. */
export type BankFailedEvent = EventOf<"BANK", "FAILED", { failure_reason: BankFailureReason }>;
/** Payment received, crypto released. */
export type PayinSuccessEvent = EventOf<
  "PAYIN",
  "SUCCESS",
  {
    /** Bank reference of the fiat payment (the UTR for INR). */
    transaction_reference_id: string;
    /** The on-chain transaction that delivered the crypto. */
    transaction_hash: string;
  }
>;
/** The payin failed. The list of reasons is not published, so it is an open string. */
export type PayinFailedEvent = EventOf<"PAYIN", "FAILED", { failure_reason: string }>;
/** The refund started. */
export type PayinRefundInitiatedEvent = EventOf<"PAYIN", "REFUND_INITIATED", { refund_reason: PayinRefundReason }>;
/** The fiat was returned to its source. */
export type PayinRefundedEvent = EventOf<"PAYIN", "REFUNDED", { refund_reason: PayinRefundReason }>;
/** The payment was flagged and is held for review. */
export type PayinOnHoldEvent = EventOf<"PAYIN", "ON_HOLD", {}>;
/** Funds delivered to the beneficiary. */
export type PayoutSuccessEvent = EventOf<"PAYOUT", "SUCCESS", PayoutReference & { utr: string }>;
/** The payout failed; the reason is always the generic text. */
export type PayoutFailedEvent = EventOf<"PAYOUT", "FAILED", PayoutReference & { failure_reason: "Payout failed" }>;
/** The payout amount was returned. The set of reasons is not published. */
export type PayoutRefundedEvent = EventOf<"PAYOUT", "REFUNDED", PayoutReference & { refund_reason: string }>;
/**
 * Held for compliance review, or for a request for information: then
 * `rfi_link` is the form the customer must complete.
 */
export type PayoutInReviewEvent = EventOf<
  "PAYOUT",
  "IN_REVIEW",
  PayoutReference &
    ({ reason: "Request for information"; rfi_link: string } | { reason: "Under compliance review"; rfi_link?: string })
>;
/** EDD passed; higher limits. */
export type EddVerifiedEvent = EventOf<"EDD", "VERIFIED", {}>;
/** EDD failed; standard limits remain. */
export type EddFailedEvent = EventOf<"EDD", "FAILED", {}>;

export type CustomerEvent = CustomerVerifiedEvent | CustomerFailedEvent;
export type BankEvent = BankVerifiedEvent | BankFailedEvent;
export type PayinEvent =
  | PayinSuccessEvent
  | PayinFailedEvent
  | PayinRefundInitiatedEvent
  | PayinRefundedEvent
  | PayinOnHoldEvent;
export type PayoutEvent = PayoutSuccessEvent | PayoutFailedEvent | PayoutRefundedEvent | PayoutInReviewEvent;
export type EddEvent = EddVerifiedEvent | EddFailedEvent;

/** Every event of the catalog, discriminated by `type` and then `event`. */
export type WebhookEvent = CustomerEvent | BankEvent | PayinEvent | PayoutEvent | EddEvent;

/** The catalog event with this type and event, e.g. `WebhookEventOf<"PAYOUT", "IN_REVIEW">`. */
export type WebhookEventOf<
  Type extends WebhookEvent["type"],
  Event extends Extract<WebhookEvent, { type: Type }>["event"],
> = Extract<WebhookEvent, { type: Type; event: Event }>;

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
