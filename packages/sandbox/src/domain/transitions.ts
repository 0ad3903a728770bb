// The state machines. Each move sets the record's status and the fields that go with it, and emits the event
// of the catalog for it. Statuses without an event (PROCESSING, MANUAL_REVIEW, UNVERIFIED) move silently, and so
// do USA bank accounts linked through the bank link flow (the document: no BANK event for those).
//
// The vocabulary is the spec's (@exchange-kit/types); which moves emit which event is written here, by hand. A
// status the spec removes fails to type-check below; one it adds moves silently until a move emits its event.
import { webhookMetadataRules } from "@exchange-kit/types";
import type { BankRow, CustomerRow, EddRow, PayinRow, PayoutRow, PlannedStep } from "../records/rows.js";
import type { RecordType, RowOf } from "../record-kinds.js";
import type { Store } from "../store/store.js";
import type { SandboxClock } from "./clock.js";
import type { EventSink } from "./ports.js";
import { transactionHash, utr } from "./ids.js";
import { RFI_LINK_BASE } from "./magic.js";

export const CUSTOMER_FAILURE_REASONS = webhookMetadataRules.CUSTOMER.FAILED.failure_reason.values;
export const BANK_FAILURE_REASONS = webhookMetadataRules.BANK.FAILED.failure_reason.values;
export const PAYIN_REFUND_REASONS = webhookMetadataRules.PAYIN.REFUNDED.refund_reason.values;
export const PAYOUT_REVIEW_REASONS = webhookMetadataRules.PAYOUT.IN_REVIEW.reason.values;

/** What a move needs of the domain (SandboxDomain is one): the record's clock, its table and the event log. */
export interface MoveContext {
  clock(org: string): Promise<SandboxClock>;
  readonly store: Store;
  readonly events: EventSink;
}

export async function moveCustomer(domain: MoveContext, customer: CustomerRow, step: PlannedStep): Promise<void> {
  const status = step.status as CustomerRow["status"];
  customer.status = status;
  customer.failure_reason = status === "FAILED" ? (step.failure_reason ?? "KYC_FAILED") : null;
  if (customer.kyc && status !== "UNVERIFIED") {
    customer.kyc.status = status;
    customer.kyc.failure_reason = customer.failure_reason;
  }
  customer.updated_at = (await domain.clock(customer.org)).iso();
  await domain.store.customers.put(customer);
  if (status === "VERIFIED") await domain.events.emit(customer.org, "CUSTOMER", customer.id, "VERIFIED", {});
  if (status === "FAILED")
    await domain.events.emit(customer.org, "CUSTOMER", customer.id, "FAILED", {
      failure_reason: customer.failure_reason,
    });
}

export async function moveBank(domain: MoveContext, bank: BankRow, step: PlannedStep): Promise<void> {
  const status = step.status as BankRow["bank_account_status"];
  bank.bank_account_status = status;
  bank.failure_reason = status === "FAILED" ? (step.failure_reason ?? "PENNY_DROP_FAILED") : null;
  bank.updated_at = (await domain.clock(bank.org)).iso();
  await domain.store.banks.put(bank);
  if (bank.source === "linked") return;
  if (status === "VERIFIED") await domain.events.emit(bank.org, "BANK", bank.id, "VERIFIED", {});
  if (status === "FAILED")
    await domain.events.emit(bank.org, "BANK", bank.id, "FAILED", { failure_reason: bank.failure_reason });
}

export async function movePayin(domain: MoveContext, payin: PayinRow, step: PlannedStep): Promise<void> {
  const status = step.status as PayinRow["status"];
  payin.status = status;
  payin.updated_at = (await domain.clock(payin.org)).iso();
  let metadata: Record<string, unknown> = {};
  switch (status) {
    case "SUCCESS":
      payin.transaction_hash ??= transactionHash(payin.network);
      payin.failure_reason = null;
      metadata = { transaction_reference_id: payin.transaction_reference_id, transaction_hash: payin.transaction_hash };
      break;
    case "FAILED":
      payin.failure_reason = step.failure_reason ?? "PAYMENT_NOT_RECEIVED";
      metadata = { failure_reason: payin.failure_reason };
      break;
    case "REFUND_INITIATED":
    case "REFUNDED":
      payin.refund_reason = step.refund_reason ?? payin.refund_reason ?? "INCORRECT_AMOUNT";
      metadata = { refund_reason: payin.refund_reason };
      break;
    default:
      break;
  }
  await domain.store.payins.put(payin);
  if (status !== "PROCESSING") await domain.events.emit(payin.org, "PAYIN", payin.id, status, metadata);
}

export async function movePayout(domain: MoveContext, payout: PayoutRow, step: PlannedStep): Promise<void> {
  const status = step.status as PayoutRow["status"];
  payout.status = status;
  payout.updated_at = (await domain.clock(payout.org)).iso();
  // The funding transaction is seen once the order leaves PROCESSING (how it is tied to the order is not published).
  if (status !== "PROCESSING" && status !== "FAILED") payout.transaction_hash ??= transactionHash(payout.network);
  const metadata: Record<string, unknown> = { client_reference_id: payout.client_reference_id };
  switch (status) {
    case "SUCCESS":
      payout.utr ??= utr();
      payout.failure_reason = null;
      metadata.utr = payout.utr;
      break;
    case "FAILED":
      // The document: always the generic text.
      payout.failure_reason = "Payout failed";
      metadata.failure_reason = payout.failure_reason;
      break;
    case "REFUNDED":
      payout.refund_reason = step.refund_reason ?? "Payout amount returned";
      metadata.refund_reason = payout.refund_reason;
      break;
    case "IN_REVIEW":
      payout.review_reason = step.reason ?? "Under compliance review";
      metadata.reason = payout.review_reason;
      if (payout.review_reason === "Request for information") {
        payout.rfi_link = step.rfi_link ?? `${RFI_LINK_BASE}${payout.id.slice(0, 8)}`;
        metadata.rfi_link = payout.rfi_link;
      }
      break;
    default:
      break;
  }
  await domain.store.payouts.put(payout);
  if (status !== "PROCESSING") await domain.events.emit(payout.org, "PAYOUT", payout.id, status, metadata);
}

export async function moveEdd(domain: MoveContext, edd: EddRow, step: PlannedStep): Promise<void> {
  edd.status = step.status as EddRow["status"];
  edd.updated_at = (await domain.clock(edd.org)).iso();
  await domain.store.edd.put(edd);
  if (edd.status !== "PROCESSING") await domain.events.emit(edd.org, "EDD", edd.id, edd.status, {});
}

/** A kind's state machine: sets the row's status and its fields, stores the row and emits the event. */
export type Move<T extends RecordType> = (domain: MoveContext, row: RowOf<T>, step: PlannedStep) => Promise<void>;

/**
 * The state machine of each kind, by event type: an event type of the registry without its move here fails to
 * type-check.
 *
 * @example
 * await MOVES.BANK(domain, bank, { status: "VERIFIED" }); // stores the bank and emits BANK VERIFIED
 */
export const MOVES: { readonly [T in RecordType]: Move<T> } = {
  CUSTOMER: moveCustomer,
  BANK: moveBank,
  PAYIN: movePayin,
  PAYOUT: movePayout,
  EDD: moveEdd,
};
