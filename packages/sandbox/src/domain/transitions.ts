// The state machines. Each move sets the record's status and the fields that go with it, and emits the event
// of the catalog for it. Statuses without an event (PROCESSING, MANUAL_REVIEW, UNVERIFIED) move silently, and so
// do USA bank accounts linked through the bank link flow (the document: no BANK event for those).
//
// The vocabulary is the spec's (@exchange-kit/types); which moves emit which event is written here, by hand. A
// status the spec removes fails to type-check below; one it adds moves silently until a move emits its event.
import { recordStatuses, webhookEventsByType, webhookMetadataRules } from "@exchange-kit/types";
import type {
  BankRow,
  BankStatus,
  CustomerRow,
  CustomerStatus,
  EddRow,
  EddStatus,
  PayinRow,
  PayinStatus,
  PayoutRow,
  PayoutStatus,
  PlannedStep,
} from "../store/records.js";
import type { SandboxDomain } from "./sandbox-domain.js";
import { transactionHash, utr } from "./ids.js";
import { RFI_LINK_BASE } from "./magic.js";

export const CUSTOMER_STATUSES: readonly CustomerStatus[] = ["UNVERIFIED", ...webhookEventsByType.CUSTOMER];
export const CUSTOMER_FAILURE_REASONS = webhookMetadataRules.CUSTOMER.FAILED.failure_reason.values;
export const BANK_STATUSES: readonly BankStatus[] = recordStatuses.BankAccount;
export const BANK_FAILURE_REASONS = webhookMetadataRules.BANK.FAILED.failure_reason.values;
export const PAYIN_STATUSES: readonly PayinStatus[] = recordStatuses.PayinOrder;
export const PAYIN_REFUND_REASONS = webhookMetadataRules.PAYIN.REFUNDED.refund_reason.values;
export const PAYOUT_STATUSES: readonly PayoutStatus[] = recordStatuses.PayoutOrder;
export const PAYOUT_REVIEW_REASONS = webhookMetadataRules.PAYOUT.IN_REVIEW.reason.values;
export const EDD_STATUSES: readonly EddStatus[] = ["PROCESSING", ...webhookEventsByType.EDD];

export async function moveCustomer(domain: SandboxDomain, customer: CustomerRow, step: PlannedStep): Promise<void> {
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

export async function moveBank(domain: SandboxDomain, bank: BankRow, step: PlannedStep): Promise<void> {
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

export async function movePayin(domain: SandboxDomain, payin: PayinRow, step: PlannedStep): Promise<void> {
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

export async function movePayout(domain: SandboxDomain, payout: PayoutRow, step: PlannedStep): Promise<void> {
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

export async function moveEdd(domain: SandboxDomain, edd: EddRow, step: PlannedStep): Promise<void> {
  edd.status = step.status as EddRow["status"];
  edd.updated_at = (await domain.clock(edd.org)).iso();
  await domain.store.edd.put(edd);
  if (edd.status !== "PROCESSING") await domain.events.emit(edd.org, "EDD", edd.id, edd.status, {});
}
