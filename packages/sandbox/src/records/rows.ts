// The records the sandbox keeps. Rows carry the owning organization (`org`) so every lookup can be scoped, and
// an optional `plan`: the statuses the record will still move through on its own (automatic progress).
import type { RecordStatus, WebhookEventName, WebhookEventType } from "@exchange-kit/types";

// The statuses come from the spec's catalog (@exchange-kit/types). Where the spec leaves a status open, the sandbox
// adds the one status it starts in to the events the record announces.
/** UNVERIFIED on creation, then the CUSTOMER events. */
export type CustomerStatus = "UNVERIFIED" | WebhookEventName<"CUSTOMER">;
/** PROCESSING once submitted, then the CUSTOMER events. */
export type KycStatus = "PROCESSING" | WebhookEventName<"CUSTOMER">;
export type BankStatus = RecordStatus<"BankAccount">;
export type PayinStatus = RecordStatus<"PayinOrder">;
export type PayoutStatus = RecordStatus<"PayoutOrder">;
/** PROCESSING while the review runs, then the EDD events. */
export type EddStatus = "PROCESSING" | WebhookEventName<"EDD">;

/** One future move of a record: the status (of its kind, when known) and the reason fields that go with it. */
export interface PlannedStep<Status extends string = string> {
  status: Status;
  failure_reason?: string | null;
  refund_reason?: string | null;
  reason?: string;
  rfi_link?: string;
}

interface Owned {
  id: string;
  org: string;
  created_at: string;
  updated_at: string;
  plan?: PlannedStep[];
}

export interface KycState {
  id: string;
  status: KycStatus;
  failure_reason: string | null;
  /** Everything submitted so far; updates overwrite members. */
  data: Record<string, unknown>;
  /** Accepted updates (selfie, tax, document): at most 3. */
  updates: number;
}

export interface CustomerRow extends Owned {
  client_reference_id: string;
  full_name: string;
  email?: string;
  phone?: string;
  country: string;
  type: "INDIVIDUAL";
  status: CustomerStatus;
  failure_reason: string | null;
  document_type?: string;
  dob?: string;
  kyc?: KycState;
}

export interface BankRow extends Owned {
  customer_id: string;
  country: string;
  /** standard: POST /bank/create; payout: POST /bank/payout/create; linked: the USA bank link flow. */
  source: "standard" | "payout" | "linked";
  bank_account_type: string;
  identifiers: Record<string, string>;
  bank_account_status: BankStatus;
  beneficiary_name: string;
  bank_name: string;
  failure_reason: string | null;
  transfer_purpose?: string;
  is_self_transfer?: boolean;
}

export interface WalletRow {
  /** Wallet IDs are integers in the document; the store keys them as strings. */
  id: string;
  org: string;
  customer_id: string;
  wallet_address: string;
  network: string;
  label: string;
  status: RecordStatus<"Wallet">;
  created_at: string;
}

export interface PayoutFees {
  service_fee: string;
  client_fee: string;
  client_gst: string;
  tds: string;
}

/**
 * Payin fees as exact decimal strings. The spec types these members as JSON numbers: the views turn them into
 * numbers at the very end (payinFeesView). Rows written by an earlier sandbox may hold numbers already.
 */
export interface PayinFees {
  client_fee_fiat: string;
  client_fee_crypto: string;
  service_fee: string;
  pg_fee: string;
  client_gst_fiat: string;
  client_gst_crypto: string;
  service_gst: string;
  pg_gst: string;
  tds: string;
  gross_effective_exchange_rate: string;
}

/** The terms a quotation fixes and the order initiated with it takes over. */
export interface OrderTerms {
  customer_id: string;
  bank_id: string;
  asset: string;
  fiat: string;
  network: string;
  sending_amount: string;
  rate: string;
  receiving_amount: string;
  wallet_address: string;
}

interface QuotationBase extends Owned, OrderTerms {
  payment_method: string;
  expiry_time: string;
  /** The amount exactly as the caller sent it: the magic amounts are read from it. */
  requested_amount: string;
  /** The order this quotation backs, once initiated (a quotation backs one order only). */
  order_id?: string;
}

export interface PayoutQuotationRow extends QuotationBase {
  remitter_id?: string;
  fees: PayoutFees;
}

export interface PayinQuotationRow extends QuotationBase {
  fees: PayinFees;
}

export interface PayoutRow extends Owned, OrderTerms {
  quotation_id: string;
  remitter_id?: string;
  client_reference_id: string | null;
  fees: PayoutFees;
  status: PayoutStatus;
  transaction_hash?: string;
  utr?: string;
  failure_reason: string | null;
  refund_reason?: string | null;
  review_reason?: string;
  rfi_link?: string;
}

export interface PayinRow extends Owned, OrderTerms {
  quotation_id: string;
  payment_method: string;
  fees: PayinFees;
  client_reference_id: string;
  transaction_reference_id: string;
  transaction_hash?: string;
  status: PayinStatus;
  failure_reason: string | null;
  refund_reason: string | null;
}

export interface EddRow extends Owned {
  module: "payin" | "payout";
  customer_id: string;
  status: EddStatus;
  data: Record<string, unknown>;
}

export interface RemitterRow extends Owned {
  data: Record<string, unknown>;
}

export interface SenderKycRow extends Owned {
  client_reference_id: string;
  customer_id: string;
  data: Record<string, unknown>;
}

/** Per-organization settings; `id` is the organization ID. */
export interface OrgSettingsRow {
  id: string;
  org: string;
  webhook_url: string | null;
  updated_at: string;
}

export interface WebhookEventBody {
  type: WebhookEventType;
  id: string;
  event: string;
  timestamp: string;
  metadata: Record<string, unknown>;
}

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  /**
   * The start of the receiver's answer: its first 1 KB as text, the organization's secret and the attempt's signature
   * replaced by "[redacted]"; null when no answer came (absent on attempts recorded before it was kept).
   */
  response_body?: string | null;
}

export interface Delivery {
  id: string;
  /** initial: the first delivery; duplicate: the deliberate second copy; redelivery: asked for through the control API. */
  reason: "initial" | "duplicate" | "redelivery";
  url: string | null;
  state: "pending" | "delivered" | "failed" | "no_webhook";
  attempts: DeliveryAttempt[];
  /** When the next attempt is due (real time, ISO 8601) while a failed one waits for its retry; else null or absent. */
  next_attempt_at?: string | null;
  /**
   * The webhook fault this delivery went through, if any: a WebhookFaultKind (faults/fault-kinds.ts), named here as
   * text since the rows sit below every feature.
   */
  fault?: string;
  /** DELAYED_DELIVERY: the wait before the first attempt; OUT_OF_ORDER: the longest hold. */
  delay_ms?: number;
  /** OUT_OF_ORDER: the later event (the sandbox's ID) delivered before this one; null when the hold ran out. */
  released_after_event?: string | null;
}

export interface EventRow {
  /** The sandbox's own ID of the event (the body's `id` is the record's ID). */
  id: string;
  org: string;
  body: WebhookEventBody;
  created_at: string;
  deliveries: Delivery[];
}

/**
 * An organization that may call the sandbox: its ID (a digest of the key), name and credentials. The secret is
 * kept because verifying a signature needs it (HMAC is symmetric); nothing answers or logs it after it is made.
 */
export interface OrganizationRow {
  id: string;
  /** The organization's own ID (every table has an `org` column). */
  org: string;
  name: string;
  api_key: string;
  api_secret: string;
  created_at: string;
}
