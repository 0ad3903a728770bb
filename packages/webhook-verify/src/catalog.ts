import type { WebhookEvent } from "./events.js";

// The catalog's required metadata per (type, event), for the hand-rolled
// validator: small enough for the core entry, so validating known events
// needs no schema library. Rules are numbers and arrays to stay small.
export const STRING = 0; // a string
export const STRING_OR_NULL = 1; // present, a string or null
export const OPTIONAL_STRING = 2; // absent or a string
/** One rule per metadata key; an array lists the allowed values. */
export type MetadataRule = typeof STRING | typeof STRING_OR_NULL | typeof OPTIONAL_STRING | readonly string[];
export type MetadataRules = { readonly [key: string]: MetadataRule };

export const REQUEST_FOR_INFORMATION = "Request for information";
const REFUND_REASONS = ["INCORRECT_AMOUNT", "PAYMENT_FROM_NON_WHITELISTED_ACCOUNT", "THIRD_PARTY_PAYMENT"];

// Typed by the event union: a pair missing here, or one not in the union, fails to compile.
export const CATALOG: {
  readonly [T in WebhookEvent["type"]]: { readonly [E in Extract<WebhookEvent, { type: T }>["event"]]: MetadataRules };
} = {
  CUSTOMER: {
    VERIFIED: {},
    FAILED: {
      failure_reason: [
        "DOCUMENT_VERIFICATION_FAILED",
        "TAX_VERIFICATION_FAILED",
        "ADDITIONAL_INFO_VERIFICATION_FAILED",
        "KYC_FAILED",
      ],
    },
  },
  BANK: {
    VERIFIED: {},
    FAILED: { failure_reason: ["ACCOUNT_TYPE_NRE", "PENNY_DROP_FAILED", "NAME_MISMATCH", "BANK_RISK_CHECK_FAILED"] },
  },
  PAYIN: {
    SUCCESS: { transaction_reference_id: STRING, transaction_hash: STRING },
    FAILED: { failure_reason: STRING },
    REFUND_INITIATED: { refund_reason: REFUND_REASONS },
    REFUNDED: { refund_reason: REFUND_REASONS },
    ON_HOLD: {},
  },
  PAYOUT: {
    SUCCESS: { client_reference_id: STRING_OR_NULL, utr: STRING },
    FAILED: { client_reference_id: STRING_OR_NULL, failure_reason: ["Payout failed"] },
    REFUNDED: { client_reference_id: STRING_OR_NULL, refund_reason: STRING },
    // rfi_link is further required when reason is Request for information (see validate.ts).
    IN_REVIEW: {
      client_reference_id: STRING_OR_NULL,
      reason: [REQUEST_FOR_INFORMATION, "Under compliance review"],
      rfi_link: OPTIONAL_STRING,
    },
  },
  EDD: { VERIFIED: {}, FAILED: {} },
};
