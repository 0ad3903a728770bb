// Risk checks shared by payin and payout quotations: the end user's IP, AML, EDD, the daily limit.
import { BlockList, isIP } from "node:net";
import { ApiError } from "./api-error.js";
import type { CustomerRow, PayinRow, PayoutRow } from "../records/rows.js";
import type { SandboxDomain } from "./sandbox-domain.js";
import { DAILY_LIMIT_INR } from "./catalog.js";
import { add, dec, gt, parse, ZERO, type Decimal } from "./decimal.js";
import { riskMagic } from "./magic.js";

/** Addresses that cannot be an end user's own: the caller sent its server's address instead. */
const NOT_AN_END_USER = new BlockList();
for (const [net, prefix] of [
  ["10.0.0.0", 8],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["127.0.0.0", 8],
  ["0.0.0.0", 8],
  ["169.254.0.0", 16],
  ["100.64.0.0", 10],
] as const) {
  NOT_AN_END_USER.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::1", 128],
  ["::", 128],
  ["fc00::", 7],
  ["fe80::", 10],
] as const)
  NOT_AN_END_USER.addSubnet(net, prefix, "ipv6");

export function checkEndUserIp(ip: unknown): void {
  if (typeof ip !== "string") return;
  const family = isIP(ip);
  if (family === 0) return; // the schema reports a malformed address
  if (NOT_AN_END_USER.check(ip, family === 4 ? "ipv4" : "ipv6")) {
    throw new ApiError(400, "RISK_IP_CHECK_FAILED", "Send the end user's own IP address in risk_parameters", {
      "risk_parameters.ip_address": ["A private, loopback or reserved address is not the end user's own IP."],
    });
  }
}

export async function hasVerifiedEdd(
  domain: SandboxDomain,
  customer: CustomerRow,
  module: "payin" | "payout",
): Promise<boolean> {
  return (
    (await domain.store.edd.count("customer_id = ? AND module = ? AND status = 'VERIFIED'", customer.id, module)) > 0
  );
}

export async function dailyLimit(
  domain: SandboxDomain,
  customer: CustomerRow,
  module: "payin" | "payout",
): Promise<Decimal> {
  return dec((await hasVerifiedEdd(domain, customer, module)) ? DAILY_LIMIT_INR.afterEdd : DAILY_LIMIT_INR.standard);
}

/** Fiat (INR, exact) the customer has already moved today (sandbox day) in this direction, failed orders excluded. */
export async function usedToday(
  domain: SandboxDomain,
  customer: CustomerRow,
  module: "payin" | "payout",
): Promise<Decimal> {
  const today = (await domain.clock(customer.org)).iso().slice(0, 10);
  // The fiat side of the order: what the beneficiary receives on a payout, what the customer pays on a payin.
  const table = module === "payout" ? domain.store.payouts : domain.store.payins;
  const orders: Iterable<PayinRow | PayoutRow> = await table.where(
    "customer_id = ? AND created_at >= ? AND created_at < ?",
    [customer.id, today, `${today}~`],
  );
  const fiatSide = module === "payout" ? "receiving_amount" : "sending_amount";
  let sum = ZERO;
  for (const o of orders) {
    if (
      o.customer_id === customer.id &&
      o.fiat === "INR" &&
      o.created_at.startsWith(today) &&
      o.status !== "FAILED" &&
      o.status !== "REFUNDED"
    ) {
      sum = add(sum, parse(o[fiatSide]));
    }
  }
  return sum;
}

/**
 * AML, EDD and the daily limit, in that order. Magic values (customer name or risk_parameters.device_id) reach
 * each answer; suspicious_activity_report or law_enforcement_agency_report = true requires EDD; the daily limit is
 * also really counted for INR.
 */
export async function checkRisk(
  domain: SandboxDomain,
  customer: CustomerRow,
  risk: Record<string, unknown>,
  module: "payin" | "payout",
  fiat: string,
  fiatAmount: Decimal,
): Promise<void> {
  const magic = riskMagic([customer.full_name, risk.device_id]);
  if (magic === "RISK_AML_FAILED")
    throw new ApiError(400, "RISK_AML_FAILED", "AML SCREENING FAILED", { non_field_errors: ["AML SCREENING FAILED"] });
  if (magic === "SYS_SERVICE_UNAVAILABLE") throw new ApiError(503, "SYS_SERVICE_UNAVAILABLE", "Service unavailable");
  const flagged =
    magic === "RISK_EDD_REQUIRED" ||
    risk.suspicious_activity_report === true ||
    risk.law_enforcement_agency_report === true;
  if (flagged && !(await hasVerifiedEdd(domain, customer, module))) {
    throw new ApiError(400, "RISK_EDD_REQUIRED", "EDD required", {
      non_field_errors: ["Submit EDD and retry after approval."],
    });
  }
  const overLimit =
    fiat === "INR" &&
    gt(add(await usedToday(domain, customer, module), fiatAmount), await dailyLimit(domain, customer, module));
  if (magic === "RISK_DAILY_LIMIT_EXCEEDED" || overLimit) {
    const message = module === "payout" ? "Daily offramp limit exhausted" : "Daily onramp limit exhausted";
    throw new ApiError(400, "RISK_DAILY_LIMIT_EXCEEDED", message, { non_field_errors: [message] });
  }
}
