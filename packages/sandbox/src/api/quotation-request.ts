// Reading a quotation request, the same for payins and payouts: exactly one amount written within its currency's
// decimals, a verified customer and bank account, and an asset, network and payment method of the fiat's corridor.
import { randomUUID } from "node:crypto";
import { decimalsOf } from "../domain/catalog.js";
import { fitsScale, format, isDecimalString, parse, sign, type Decimal } from "../domain/decimal.js";
import type { Precision, RequestedAmount } from "../domain/pricing.js";
import { ApiError, badRequest, REQUIRED_MESSAGE } from "../domain/api-error.js";
import type { BankRow, CustomerRow, OrderTerms } from "../records/rows.js";
import { BANK_NOT_FOUND, UUID } from "./lookups.js";
import type { Ctx } from "./validated-request.js";

/** The prefix of the module's own error codes (PAYIN_AMOUNT_BELOW_MIN, PAYOUT_QUOTATION_EXPIRED, ...). */
export type OrderPrefix = "PAYIN" | "PAYOUT";

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
export function oneAmount(body: QuotationAmounts, prefix: OrderPrefix): AmountRequest {
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

/** The amount as pricing takes it: what the customer sends, or what is to be received. */
export function requestedAmount(amount: AmountRequest): RequestedAmount {
  return amount.field === "sending_amount" ? { sending: amount.value } : { receiving: amount.value };
}

/** Quotations answer USR_UNVERIFIED both for an unverified customer and for one outside the organization. */
export async function verifiedCustomer(ctx: Ctx, id: unknown): Promise<CustomerRow> {
  const found =
    typeof id === "string" && UUID.test(id)
      ? (await ctx.domain.store.customers.owned(ctx.org.id, id.toLowerCase())).row
      : undefined;
  if (found?.status !== "VERIFIED") throw badRequest("USR_UNVERIFIED", "Customer is unverified", "customer_id");
  return found;
}

/** The customer's bank account, VERIFIED: BANK_NOT_FOUND otherwise, or BANK_ACCOUNT_UNVERIFIED while not verified. */
export async function verifiedBank(ctx: Ctx, customer: CustomerRow, id: string): Promise<BankRow> {
  const bank = UUID.test(id) ? await ctx.domain.store.banks.get(id.toLowerCase()) : undefined;
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

/** The members a quotation request chooses within a corridor. */
export interface CorridorRequest {
  fiat: string;
  asset: string;
  network: string;
  payment_method: string;
}

/**
 * The fiat's corridor and the asset, network and payment method of it the request names (checked in that order,
 * without case). The asset and the network come back as the request spelled them: the document states no case
 * for them in quotations and orders (only the payout configuration lists its assets in lowercase), so "USDT" is
 * answered "USDT", not silently "usdt". The payment method is the corridor's key (the fees and bounds are
 * looked up by it), written as the document writes it (IMPS); the fiat is the corridor's ISO code.
 */
export function chooseInCorridor<C extends { assets: string[]; networks: string[]; methods: Record<string, unknown> }>(
  corridors: Record<string, C>,
  request: CorridorRequest,
): { corridor: C; asset: string; network: string; method: string } {
  const corridor = corridorOf(corridors, request.fiat);
  oneOf("asset", request.asset, corridor.assets);
  oneOf("network", request.network, corridor.networks);
  const method = oneOf("payment_method", request.payment_method, Object.keys(corridor.methods));
  return { corridor, asset: request.asset, network: request.network, method };
}

/** The decimals a quote of this fiat and asset is written with. */
export function precisionOf(fiat: string, asset: string): Precision {
  return { fiat: decimalsOf(fiat), crypto: decimalsOf(asset) };
}

/** An amount of fiat as the bound messages show it, e.g. "2500.00 INR". */
export function fiatText(amount: Decimal, fiat: string): string {
  return `${format(amount, decimalsOf(fiat))} ${fiat}`;
}

/** A new quotation's timestamps: valid for the configured TTL from now (sandbox clock). */
async function quotationTimes(ctx: Ctx): Promise<{ created_at: string; updated_at: string; expiry_time: string }> {
  const now = (await ctx.domain.clock(ctx.org.id)).nowMs();
  const created = new Date(now).toISOString();
  return {
    created_at: created,
    updated_at: created,
    expiry_time: new Date(now + (await ctx.domain.settings(ctx.org.id)).quotationTtlSeconds * 1000).toISOString(),
  };
}

/** What every quotation holds besides its module's fees, wallet address and remitter. */
export interface QuotationTerms extends Omit<OrderTerms, "wallet_address"> {
  id: string;
  org: string;
  payment_method: string;
  created_at: string;
  updated_at: string;
  expiry_time: string;
  requested_amount: string;
}

/**
 * The members every new quotation has: what was chosen, the priced amounts, validity from now and the amount as
 * sent. The module adds its fees, its wallet address and what else it keeps.
 */
export async function quotationTerms(
  ctx: Ctx,
  chosen: { customer: CustomerRow; bank: BankRow; asset: string; fiat: string; network: string; method: string },
  priced: { sending_amount: string; rate: string; receiving_amount: string },
  amount: AmountRequest,
): Promise<QuotationTerms> {
  return {
    id: randomUUID(),
    org: ctx.org.id,
    customer_id: chosen.customer.id,
    bank_id: chosen.bank.id,
    asset: chosen.asset,
    fiat: chosen.fiat,
    network: chosen.network,
    payment_method: chosen.method,
    sending_amount: priced.sending_amount,
    rate: priced.rate,
    receiving_amount: priced.receiving_amount,
    ...(await quotationTimes(ctx)),
    requested_amount: amount.raw,
  };
}
