// Magic values: the caller drives every outcome with the data it sends, so a test can reach each state and each
// event of the catalog without the control API. The README lists them; keep the two in step.
import type { WebhookMetadataValue } from "@exchange-kit/types";
import type { BankStatus, CustomerStatus, EddStatus, PayinStatus, PayoutStatus, PlannedStep } from "../records/rows.js";
import { dec, eq, isDecimalString, parse } from "./decimal.js";

// Each outcome is typed by the spec's statuses and reasons (@exchange-kit/types): one the spec drops fails to
// type-check here.
type CustomerFailureReason = WebhookMetadataValue<"CUSTOMER", "FAILED", "failure_reason">;
type BankStep = PlannedStep<BankStatus> & {
  failure_reason?: WebhookMetadataValue<"BANK", "FAILED", "failure_reason"> | null;
};
type PayoutStep = PlannedStep<PayoutStatus> & {
  failure_reason?: WebhookMetadataValue<"PAYOUT", "FAILED", "failure_reason">;
  reason?: WebhookMetadataValue<"PAYOUT", "IN_REVIEW", "reason">;
};
type PayinStep = PlannedStep<PayinStatus> & {
  refund_reason?: WebhookMetadataValue<"PAYIN", "REFUNDED", "refund_reason">;
};

function contains(texts: readonly unknown[], token: string): boolean {
  return texts.some((t) => typeof t === "string" && t.toUpperCase().includes(token));
}

/** Every string inside a value (objects and arrays walked), for scanning submitted data. */
export function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, out);
  else if (value && typeof value === "object") for (const item of Object.values(value)) stringsIn(item, out);
  return out;
}

export const KYC_MAGIC: ReadonlyArray<[token: string, failureReason: CustomerFailureReason]> = [
  ["FAIL_DOCUMENT", "DOCUMENT_VERIFICATION_FAILED"],
  ["FAIL_TAX", "TAX_VERIFICATION_FAILED"],
  ["FAIL_ADDITIONAL_INFO", "ADDITIONAL_INFO_VERIFICATION_FAILED"],
  ["FAIL_KYC", "KYC_FAILED"],
];

/** The KYC outcome for a customer: FAILED with a catalog reason, MANUAL (waits for the control API), or VERIFIED. */
export function kycOutcome(texts: readonly unknown[]): PlannedStep<CustomerStatus> | undefined {
  for (const [token, reason] of KYC_MAGIC)
    if (contains(texts, token)) return { status: "FAILED", failure_reason: reason };
  if (contains(texts, "KYC_MANUAL")) return undefined;
  return { status: "VERIFIED", failure_reason: null };
}

export const BANK_MAGIC: ReadonlyArray<[token: string, step: BankStep | undefined]> = [
  ["NAME_MISMATCH", { status: "FAILED", failure_reason: "NAME_MISMATCH" }],
  ["ACCOUNT_TYPE_NRE", { status: "FAILED", failure_reason: "ACCOUNT_TYPE_NRE" }],
  ["BANK_RISK", { status: "FAILED", failure_reason: "BANK_RISK_CHECK_FAILED" }],
  ["PENNY_DROP", { status: "FAILED", failure_reason: "PENNY_DROP_FAILED" }],
  ["FAIL_BANK", { status: "FAILED", failure_reason: "PENNY_DROP_FAILED" }],
  ["MANUAL_REVIEW", { status: "MANUAL_REVIEW", failure_reason: null }],
  ["BANK_MANUAL", undefined],
];

/** The verification outcome of a bank account: a list of steps (empty: stays PROCESSING until moved). */
export function bankOutcome(texts: readonly unknown[]): BankStep[] {
  for (const [token, step] of BANK_MAGIC) if (contains(texts, token)) return step ? [step] : [];
  return [{ status: "VERIFIED", failure_reason: null }];
}

/** Risk answers of quotations, read from the customer's name and risk_parameters.device_id. */
export function riskMagic(
  texts: readonly unknown[],
): "RISK_AML_FAILED" | "RISK_EDD_REQUIRED" | "RISK_DAILY_LIMIT_EXCEEDED" | "SYS_SERVICE_UNAVAILABLE" | undefined {
  if (contains(texts, "AML_FAIL")) return "RISK_AML_FAILED";
  if (contains(texts, "EDD_REQUIRED")) return "RISK_EDD_REQUIRED";
  if (contains(texts, "DAILY_LIMIT")) return "RISK_DAILY_LIMIT_EXCEEDED";
  if (contains(texts, "SERVICE_UNAVAILABLE")) return "SYS_SERVICE_UNAVAILABLE";
  return undefined;
}

/**
 * The magic amount (4001 to 4005) an amount as sent equals, compared by exact decimal value: "4001", "4001.00" and
 * "4001.000000" all count; "4001.01" and "4001.000001" do not.
 */
export function magicAmount(requestedAmount: string): number | undefined {
  if (!isDecimalString(requestedAmount)) return undefined;
  const value = parse(requestedAmount);
  for (const magic of [4001, 4002, 4003, 4004, 4005]) if (eq(value, dec(magic))) return magic;
  return undefined;
}

export const RFI_LINK_BASE = "https://rfi.sandbox.exchange.example/r/";

/**
 * The statuses a payout moves through after PROCESSING, chosen by the amount the caller sent (sending_amount or
 * receiving_amount of the quotation, compared by exact value: see magicAmount). Any other amount: SUCCESS.
 */
export function payoutPlan(requestedAmount: string, payoutId: string): PayoutStep[] {
  switch (magicAmount(requestedAmount)) {
    case 4001:
      return [{ status: "FAILED", failure_reason: "Payout failed" }];
    case 4002:
      return [{ status: "IN_REVIEW", reason: "Under compliance review" }];
    case 4003:
      return [
        { status: "IN_REVIEW", reason: "Request for information", rfi_link: `${RFI_LINK_BASE}${payoutId.slice(0, 8)}` },
      ];
    case 4004:
      return [{ status: "REFUNDED", refund_reason: "Beneficiary account closed" }];
    case 4005:
      return [];
    default:
      return [{ status: "SUCCESS" }];
  }
}

/** The statuses a payin moves through after PROCESSING, chosen by the amount the caller sent. */
export function payinPlan(requestedAmount: string): PayinStep[] {
  switch (magicAmount(requestedAmount)) {
    case 4001:
      return [{ status: "FAILED", failure_reason: "PAYMENT_NOT_RECEIVED" }];
    case 4002:
      return [{ status: "ON_HOLD" }];
    case 4003:
      return [
        { status: "REFUND_INITIATED", refund_reason: "INCORRECT_AMOUNT" },
        { status: "REFUNDED", refund_reason: "INCORRECT_AMOUNT" },
      ];
    case 4004:
      return [{ status: "FAILED", failure_reason: "INCORRECT_UTR" }];
    case 4005:
      return [];
    default:
      return [{ status: "SUCCESS" }];
  }
}

/** EDD outcome: any submitted string containing FAIL_EDD fails it; EDD_MANUAL waits for the control API. */
export function eddOutcome(texts: readonly unknown[]): PlannedStep<EddStatus>[] {
  if (contains(texts, "FAIL_EDD")) return [{ status: "FAILED" }];
  if (contains(texts, "EDD_MANUAL")) return [];
  return [{ status: "VERIFIED" }];
}
