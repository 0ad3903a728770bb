// What payin and payout quotations and orders share: exactly one amount, the customer and bank checks,
// the corridor lookup, limits, fetch-rate and EDD.
import { randomUUID } from "node:crypto";
import { ApiError, badRequest, missingFields, REQUIRED_MESSAGE } from "../http/api-error.js";
import type { HandlerResult } from "../http/route.js";
import { decimalsOf, RATE_DECIMALS } from "../domain/catalog.js";
import { fitsScale, format, isDecimalString, max, parse, sign, sub, ZERO, type Decimal } from "../domain/decimal.js";
import { eddOutcome, stringsIn } from "../domain/magic.js";
import { dailyLimit, hasVerifiedEdd, usedToday } from "../domain/risk.js";
import type { BankRow, CustomerRow, EddRow, OrderTerms } from "../store/records.js";
import { BANK_NOT_FOUND, requireMembers, UUID, type Ctx } from "./common.js";
import type { OperationContext } from "./validated-request.js";

/** The one amount of a quotation request: the field, the string exactly as sent, and its exact value. */
export interface AmountRequest {
  field: "sending_amount" | "receiving_amount";
  raw: string;
  value: Decimal;
}

/** The two amounts a quotation body may carry (decimal strings). */
export interface QuotationAmounts {
  sending_amount?: string;
  receiving_amount?: string;
}

/** Exactly one of sending_amount and receiving_amount, as a decimal string, greater than zero. */
export function oneAmount(body: QuotationAmounts, prefix: "PAYIN" | "PAYOUT"): AmountRequest {
  const hasSending = body.sending_amount !== undefined && body.sending_amount !== null;
  const hasReceiving = body.receiving_amount !== undefined && body.receiving_amount !== null;
  if (hasSending && hasReceiving) {
    throw badRequest(
      "INPUT_MALFORMED",
      "Send exactly one of sending_amount and receiving_amount, not both",
      "non_field_errors",
    );
  }
  if (!hasSending && !hasReceiving) {
    const message = "Send one of sending_amount and receiving_amount.";
    throw new ApiError(400, "REQ_FIELD_MISSING", "Missing required field: sending_amount or receiving_amount", {
      sending_amount: [REQUIRED_MESSAGE, message],
      receiving_amount: [REQUIRED_MESSAGE, message],
    });
  }
  const field = hasSending ? "sending_amount" : "receiving_amount";
  const raw = body[field];
  if (!isDecimalString(raw)) {
    throw badRequest("INPUT_MALFORMED", `Invalid value for ${field}`, field, "Must be a decimal string, e.g. 100.50.");
  }
  const value = parse(raw);
  if (sign(value) <= 0)
    throw badRequest(`${prefix}_AMOUNT_ZERO_OR_NEGATIVE`, "Amount must be greater than zero", field);
  return { field, raw, value };
}

/**
 * A requested amount must be written within its currency's decimals (fiat 2, crypto 6): the sandbox never rounds
 * what the caller asked for. Trailing zeros are no precision ("100.500" INR is 100.50); "100.005" INR is refused.
 */
export function checkPrecision(amount: AmountRequest, currency: string): void {
  const decimals = decimalsOf(currency);
  if (!fitsScale(amount.value, decimals)) {
    throw badRequest(
      "INPUT_MALFORMED",
      `Invalid value for ${amount.field}`,
      amount.field,
      `${currency.toUpperCase()} amounts have at most ${decimals} decimals; ${amount.raw} has more. The sandbox does not round a requested amount.`,
    );
  }
}

/** Quotations answer USR_UNVERIFIED both for an unverified customer and for one outside the organization. */
export function verifiedCustomer(ctx: Ctx, id: unknown): CustomerRow {
  const found =
    typeof id === "string" && UUID.test(id)
      ? ctx.domain.store.customers.owned(ctx.org.id, id.toLowerCase()).row
      : undefined;
  if (found?.status !== "VERIFIED") throw badRequest("USR_UNVERIFIED", "Customer is unverified", "customer_id");
  return found;
}

/** The customer's bank account, VERIFIED: BANK_NOT_FOUND otherwise, or BANK_ACCOUNT_UNVERIFIED while not verified. */
export function verifiedBank(ctx: Ctx, customer: CustomerRow, id: string): BankRow {
  const bank = UUID.test(id) ? ctx.domain.store.banks.get(id.toLowerCase()) : undefined;
  if (!bank || bank.customer_id !== customer.id) throw badRequest("BANK_NOT_FOUND", BANK_NOT_FOUND, "bank_id");
  if (bank.bank_account_status !== "VERIFIED")
    throw badRequest("BANK_ACCOUNT_UNVERIFIED", "Bank account is unverified", "bank_id");
  return bank;
}

/** A value of the corridor (asset, network, payment method), compared without case; INPUT_MALFORMED otherwise. */
export function oneOf(field: string, value: string, allowed: readonly string[]): string {
  const match = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
  if (!match)
    throw badRequest("INPUT_MALFORMED", `Invalid value for ${field}`, field, `Must be one of: ${allowed.join(", ")}.`);
  return match;
}

/** A new quotation's timestamps: valid for the configured TTL from now (sandbox clock). */
export function quotationTimes(ctx: Ctx): { created_at: string; updated_at: string; expiry_time: string } {
  const now = ctx.domain.clock.nowMs();
  const created = new Date(now).toISOString();
  return {
    created_at: created,
    updated_at: created,
    expiry_time: new Date(now + ctx.domain.settings.quotationTtlSeconds * 1000).toISOString(),
  };
}

/** The terms an order takes over from the quotation it is initiated with. */
export function orderTerms(q: OrderTerms): OrderTerms {
  return {
    customer_id: q.customer_id,
    bank_id: q.bank_id,
    asset: q.asset,
    fiat: q.fiat,
    network: q.network,
    sending_amount: q.sending_amount,
    rate: q.rate,
    receiving_amount: q.receiving_amount,
    wallet_address: q.wallet_address,
  };
}

export function expired(ctx: Ctx, expiryTime: string): boolean {
  return ctx.domain.clock.nowMs() > Date.parse(expiryTime);
}

export function limitsOf(
  ctx: OperationContext<"getPayinLimits" | "getPayoutLimits">,
  module: "payin" | "payout",
): HandlerResult {
  const customer = verifiedCustomer(ctx, ctx.params.customer_id);
  const limit = dailyLimit(ctx.domain, customer, module);
  const used = usedToday(ctx.domain, customer, module);
  const inr = (d: Decimal) => format(d, decimalsOf("INR"));
  return {
    message: "Limits fetched successfully",
    data: {
      fiat: "INR",
      daily_limit: inr(limit),
      daily_used: inr(used),
      daily_remaining: inr(max(ZERO, sub(limit, used))),
      edd_verified: hasVerifiedEdd(ctx.domain, customer, module),
    },
  };
}

/** The corridor of a fiat (any case) in the catalog's payin or payout corridors; INPUT_MALFORMED otherwise. */
export function corridorOf<C>(corridors: Record<string, C>, fiat: string): C {
  const corridor = corridors[fiat.toUpperCase()];
  if (!corridor)
    throw badRequest(
      "INPUT_MALFORMED",
      "Invalid value for fiat",
      "fiat",
      `Must be one of: ${Object.keys(corridors).join(", ")}.`,
    );
  return corridor;
}

/** Query parameters (names are the sandbox's choice): asset and fiat, both required. */
export function fetchRate(ctx: Ctx, corridors: Record<string, { rate: string; assets: string[] }>): HandlerResult {
  const asset = ctx.query.get("asset");
  const fiat = ctx.query.get("fiat");
  if (!asset || !fiat) {
    throw missingFields([asset ? undefined : "asset", fiat ? undefined : "fiat"].filter((m) => m !== undefined));
  }
  const corridor = corridorOf(corridors, fiat);
  const assetName = oneOf("asset", asset, corridor.assets);
  return {
    message: "Rate fetched successfully",
    data: { asset: assetName, fiat: fiat.toUpperCase(), rate: format(parse(corridor.rate), RATE_DECIMALS, "half-up") },
  };
}

function eddView(edd: EddRow) {
  return {
    ...edd.data,
    id: edd.id,
    customer_id: edd.customer_id,
    status: edd.status,
    created_at: edd.created_at,
    updated_at: edd.updated_at,
  };
}

/** EDD body members are not published; the sandbox needs customer_id and keeps the rest as sent. */
export function saveEdd(
  ctx: OperationContext<"savePayinEdd" | "savePayoutEdd">,
  module: "payin" | "payout",
): HandlerResult {
  requireMembers(ctx.body, ["customer_id"]);
  const customer = verifiedCustomer(ctx, ctx.body.customer_id);
  const now = ctx.domain.clock.iso();
  const { customer_id: _ignored, ...data } = ctx.body;
  const edd: EddRow = {
    id: randomUUID(),
    org: ctx.org.id,
    module,
    customer_id: customer.id,
    status: "PROCESSING",
    data,
    created_at: now,
    updated_at: now,
  };
  ctx.domain.store.edd.put(edd);
  ctx.domain.plan("edd", edd, eddOutcome(stringsIn(data)));
  return { message: "EDD submitted successfully", data: eddView(edd) };
}

/** The customer filter is read from the `customer_id` query parameter (its name is not published). */
export function listEdd(ctx: Ctx, module: "payin" | "payout"): HandlerResult {
  const customerId = ctx.query.get("customer_id");
  if (customerId !== null) {
    const owned = UUID.test(customerId)
      ? ctx.domain.store.customers.owned(ctx.org.id, customerId.toLowerCase()).row
      : undefined;
    if (!owned) throw badRequest("INPUT_INVALID_PARAMETER", "Invalid customer ID", "customer_id");
  }
  const rows =
    customerId === null
      ? ctx.domain.store.edd.where("org = ? AND module = ?", [ctx.org.id, module], "created_at, seq")
      : ctx.domain.store.edd.where(
          "org = ? AND module = ? AND customer_id = ?",
          [ctx.org.id, module, customerId.toLowerCase()],
          "created_at, seq",
        );
  return { message: "EDD records fetched successfully", data: rows.map(eddView) };
}
