// Payouts: configuration, quotations (standard and remittance), orders and their history. A quotation fixes
// the rate until its expiry_time (sandbox clock) and backs one order only.
import { ApiError, badRequest } from "../domain/api-error.js";
import type { HandlerResult } from "./route.js";
import { decimalsOf, PAYOUT_CORRIDORS, type PayoutCorridor } from "../domain/catalog.js";
import { add, dec, format, gte, lte, max, min, sub, ulp, type Decimal } from "../domain/decimal.js";
import { depositAddress } from "../domain/ids.js";
import { payoutPlan } from "../domain/magic.js";
import { formatPayoutQuote, quotePayout } from "../domain/pricing.js";
import { checkEndUserIp, checkRisk } from "../domain/risk.js";
import { PAYOUT_STATUSES } from "../records/statuses.js";
import type { PayoutQuotationRow, PayoutRow } from "../records/rows.js";
import { historyPage } from "./list-filters.js";
import { requireMembers, text } from "./body-members.js";
import { UUID } from "./lookups.js";
import { fetchRate, limitsOf, listEdd, saveEdd } from "./module-reads.js";
import { checkQuotationUsable, checkReferenceUnused, orderStart, saveOrder } from "./order-initiation.js";
import {
  type AmountRequest,
  checkPrecision,
  chooseInCorridor,
  fiatText,
  oneAmount,
  precisionOf,
  quotationTerms,
  requestedAmount,
  verifiedBank,
  verifiedCustomer,
} from "./quotation-request.js";
import type { Ctx, OperationContext } from "./validated-request.js";
import { payoutQuotationView, payoutView } from "./views.js";

function corridorConfiguration(corridor: PayoutCorridor) {
  const fiatDecimals = decimalsOf(corridor.fiat);
  const fiat = (d: Decimal) => format(d, fiatDecimals);
  const limits: Record<string, Record<string, Record<string, { min: string; max: string }>>> = {};
  for (const asset of corridor.assets) {
    limits[asset] = {};
    // The fiat bounds are exclusive and apply to what the beneficiary receives, after fees: the crypto limits are
    // the sending amounts that buy one fiat unit more than the minimum and one less than the maximum (both accepted).
    const precision = { fiat: fiatDecimals, crypto: decimalsOf(asset) };
    const unit = ulp(fiatDecimals);
    const crypto = (receiving: Decimal) =>
      format(quotePayout(corridor.rate, { receiving }, precision).sending, precision.crypto);
    const byMethod = Object.fromEntries(
      Object.entries(corridor.methods).map(([method, b]) => [
        method,
        { min: crypto(add(dec(b.minFiat), unit)), max: crypto(sub(dec(b.maxFiat), unit)) },
      ]),
    );
    for (const network of corridor.networks) limits[asset][network] = { ...byMethod };
  }
  const bounds = Object.values(corridor.methods);
  return {
    assets: corridor.assets,
    networks: corridor.networks,
    payment_methods: Object.keys(corridor.methods),
    limits,
    required_risk_parameters: corridor.requiredRiskParameters,
    settlement_time: Object.fromEntries(Object.entries(corridor.methods).map(([m, b]) => [m, b.settlementMinutes])),
    min_fiat_amount: fiat(bounds.map((b) => dec(b.minFiat)).reduce(min)),
    max_fiat_amount: fiat(bounds.map((b) => dec(b.maxFiat)).reduce(max)),
  };
}

/** One key per fiat, in lowercase; member names other than required_risk_parameters are the sandbox's own. */
let configuration: Record<string, ReturnType<typeof corridorConfiguration>> | undefined;

export function payoutConfiguration(): HandlerResult {
  // The catalog is fixed: computed once.
  configuration ??= Object.fromEntries(
    Object.values(PAYOUT_CORRIDORS).map((c) => [c.fiat.toLowerCase(), corridorConfiguration(c)]),
  );
  return { message: "Payout configuration fetched successfully", data: configuration };
}

/** The remittance quotation's remitter_id, lowercased: a remitter of the organization, else UNKNOWN_ERROR. */
async function remitterOf(ctx: Ctx, remitter: string | undefined): Promise<string | undefined> {
  if (remitter === undefined) return undefined;
  const id = remitter.toLowerCase();
  if (!UUID.test(id) || !(await ctx.domain.store.remitters.owned(ctx.org.id, id)).row) {
    throw badRequest(
      "UNKNOWN_ERROR",
      "Remitter not found",
      "remitter_id",
      "No remitter with this ID in your organization.",
    );
  }
  return id;
}

/** Every risk parameter the corridor requires (REQ_FIELD_MISSING naming each), and the end user's own IP. */
function checkRiskParameters(required: readonly string[], risk: Record<string, unknown>): void {
  const missing = required.filter((key) => risk[key] === undefined || risk[key] === "");
  if (missing.length > 0) {
    throw new ApiError(
      400,
      "REQ_FIELD_MISSING",
      `Missing required risk parameters: ${missing.join(", ")}`,
      Object.fromEntries(missing.map((k) => [`risk_parameters.${k}`, ["This field is required."]])),
    );
  }
  checkEndUserIp(risk.ip_address);
}

/**
 * Why the payout method's bounds refuse the quote, or undefined. The document's bounds are exclusive (greater than
 * 2,500 INR; less than 500,000 INR for IMPS) and apply to what the beneficiary receives, compared exactly.
 */
export function payoutBoundsError(
  receiving: Decimal,
  bounds: { minFiat: string; maxFiat: string },
  request: { amount: AmountRequest; method: string; fiat: string },
): ApiError | undefined {
  const { amount, method } = request;
  const fiat = (d: Decimal) => fiatText(d, request.fiat);
  if (lte(receiving, dec(bounds.minFiat))) {
    return badRequest(
      "PAYOUT_AMOUNT_BELOW_MIN",
      "Entered amount is less than minimum transaction amount",
      amount.field,
      `The beneficiary must receive more than ${fiat(dec(bounds.minFiat))}; ${amount.raw} gives ${fiat(receiving)}.`,
    );
  }
  if (gte(receiving, dec(bounds.maxFiat))) {
    return badRequest(
      "PAYOUT_AMOUNT_ABOVE_MAX",
      "Entered amount exceeds maximum transaction amount",
      amount.field,
      `The beneficiary must receive less than ${fiat(dec(bounds.maxFiat))} by ${method}; ${amount.raw} gives ${fiat(receiving)}.`,
    );
  }
  return undefined;
}

/** Either quotation; `remitter` is the remittance quotation's remitter_id, checked after the customer. */
async function createQuotation(
  ctx: OperationContext<"createPayoutQuotation" | "createRemittancePayoutQuotation">,
  remitter: string | undefined,
): Promise<PayoutQuotationRow> {
  const { body, domain } = ctx;
  const amount = oneAmount(body, "PAYOUT");
  const customer = await verifiedCustomer(ctx, body.customer_id);
  const remitterId = await remitterOf(ctx, remitter);
  const { corridor, asset, network, method } = chooseInCorridor(PAYOUT_CORRIDORS, body);
  const bank = await verifiedBank(ctx, customer, body.bank_id);
  const risk = body.risk_parameters;
  checkRiskParameters(corridor.requiredRiskParameters, risk);
  // The requested amount is in the asset (sending) or the fiat (receiving); it is never rounded.
  checkPrecision(amount, amount.field === "sending_amount" ? asset : corridor.fiat);
  const precision = precisionOf(corridor.fiat, asset);
  const quote = quotePayout(corridor.rate, requestedAmount(amount), precision);
  const outOfBounds = payoutBoundsError(quote.receiving, corridor.methods[method]!, {
    amount,
    method,
    fiat: corridor.fiat,
  });
  if (outOfBounds) throw outOfBounds;
  await checkRisk(domain, customer, risk, "payout", corridor.fiat, quote.receiving);
  const priced = formatPayoutQuote(quote, precision);
  const quotation: PayoutQuotationRow = {
    ...(await quotationTerms(ctx, { customer, bank, asset, fiat: corridor.fiat, network, method }, priced, amount)),
    remitter_id: remitterId,
    fees: priced.fees,
    wallet_address: depositAddress(network),
  };
  await domain.store.payoutQuotations.put(quotation);
  return quotation;
}

export async function createPayoutQuotation(ctx: OperationContext<"createPayoutQuotation">): Promise<HandlerResult> {
  return {
    message: "Quotation created successfully",
    data: payoutQuotationView(await createQuotation(ctx, undefined)),
  };
}

export async function createRemittancePayoutQuotation(
  ctx: OperationContext<"createRemittancePayoutQuotation">,
): Promise<HandlerResult> {
  const quotation = await createQuotation(ctx, ctx.body.remitter_id);
  return { message: "Quotation created successfully", data: payoutQuotationView(quotation) };
}

export async function getPayoutQuotation(ctx: OperationContext<"getPayoutQuotation">): Promise<HandlerResult> {
  const quotation = (await ctx.domain.store.payoutQuotations.owned(ctx.org.id, ctx.params.quotation_id.toLowerCase()))
    .row;
  if (!quotation) throw badRequest("UNKNOWN_ERROR", "Quotation not found", "quotation_id");
  return { message: "Quotation fetched successfully", data: payoutQuotationView(quotation) };
}

export async function initiatePayout(ctx: OperationContext<"initiatePayout">): Promise<HandlerResult> {
  const { body, domain, org } = ctx;
  requireMembers(body, ["quotation_id"]);
  const quotationId = body.quotation_id.toLowerCase();
  const quotation = (await domain.store.payoutQuotations.owned(org.id, quotationId)).row;
  if (!quotation) throw badRequest("PAYOUT_QUOTATION_NOT_FOUND", "Quotation not found", "quotation_id");
  // Optional here, unlike on payins.
  const reference = text(body, "client_reference_id") ?? null;
  if (reference !== null) await checkReferenceUnused(domain.store.payouts, org.id, reference, "PAYOUT");
  await checkQuotationUsable(ctx, quotation, "PAYOUT");
  const payout: PayoutRow = {
    ...(await orderStart(ctx, quotation)),
    remitter_id: quotation.remitter_id,
    client_reference_id: reference,
    fees: quotation.fees,
  };
  await saveOrder(domain.store.payoutQuotations, quotation, domain.store.payouts, payout);
  await domain.plan("PAYOUT", payout, payoutPlan(quotation.requested_amount, payout.id));
  return { message: "Payout initiated successfully", data: payoutView(payout) };
}

export async function getPayout(ctx: OperationContext<"getPayout">): Promise<HandlerResult> {
  const payout = (await ctx.domain.store.payouts.owned(ctx.org.id, ctx.params.payout_id.toLowerCase())).row;
  if (!payout) throw badRequest("PAYOUT_INVALID_PAYOUT_ID", "Invalid payout ID", "payout_id");
  return { message: "Payout fetched successfully", data: payoutView(payout) };
}

export async function listPayoutHistory(ctx: OperationContext<"listPayoutHistory">): Promise<HandlerResult> {
  const page = await historyPage(ctx, ctx.domain.store.payouts, PAYOUT_STATUSES);
  return { message: "Payout history fetched successfully", data: { ...page, results: page.results.map(payoutView) } };
}

export const getPayoutLimits = (ctx: OperationContext<"getPayoutLimits">) => limitsOf(ctx, "payout");
export const fetchPayoutRate = (ctx: OperationContext<"fetchPayoutRate">) => fetchRate(ctx, PAYOUT_CORRIDORS);
export const savePayoutEdd = (ctx: OperationContext<"savePayoutEdd">) => saveEdd(ctx, "payout");
export const listPayoutEdd = (ctx: OperationContext<"listPayoutEdd">) => listEdd(ctx, "payout");
