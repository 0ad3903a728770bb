// Payouts: configuration, quotations (standard and remittance), orders and their history. A quotation fixes
// the rate until its expiry_time (sandbox clock) and backs one order only.
import { randomUUID } from "node:crypto";
import { ApiError, badRequest } from "../http/api-error.js";
import type { HandlerResult } from "../http/server.js";
import { PAYOUT_CORRIDORS, type PayoutCorridor } from "../domain/catalog.js";
import { depositAddress } from "../domain/ids.js";
import { payoutPlan } from "../domain/magic.js";
import { quotePayout } from "../domain/pricing.js";
import { checkEndUserIp, checkRisk } from "../domain/risk.js";
import { PAYOUT_STATUSES } from "../domain/transitions.js";
import type { PayoutQuotationRow, PayoutRow } from "../store/records.js";
import { historyFilters, paginate, requireMembers, text, UUID, type Ctx } from "./common.js";
import { expired, fetchRate, limitsOf, listEdd, oneAmount, oneOf, saveEdd, verifiedBank, verifiedCustomer } from "./orders-common.js";
import { payoutQuotationView, payoutView } from "./views.js";

function corridorConfiguration(corridor: PayoutCorridor) {
  const limits: Record<string, Record<string, Record<string, { min: string; max: string }>>> = {};
  for (const asset of corridor.assets) {
    limits[asset] = {};
    for (const network of corridor.networks) {
      limits[asset][network] = {};
      for (const [method, bounds] of Object.entries(corridor.methods)) {
        limits[asset][network][method] = { min: (bounds.minFiat / corridor.rate).toFixed(6), max: (bounds.maxFiat / corridor.rate).toFixed(6) };
      }
    }
  }
  const bounds = Object.values(corridor.methods);
  return {
    assets: corridor.assets,
    networks: corridor.networks,
    payment_methods: Object.keys(corridor.methods),
    limits,
    required_risk_parameters: corridor.requiredRiskParameters,
    settlement_time: Object.fromEntries(Object.entries(corridor.methods).map(([m, b]) => [m, b.settlementMinutes])),
    min_fiat_amount: Math.min(...bounds.map((b) => b.minFiat)).toFixed(2),
    max_fiat_amount: Math.max(...bounds.map((b) => b.maxFiat)).toFixed(2),
  };
}

/** One key per fiat, in lowercase; member names other than required_risk_parameters are the sandbox's own. */
export function payoutConfiguration(): HandlerResult {
  const data = Object.fromEntries(Object.values(PAYOUT_CORRIDORS).map((c) => [c.fiat.toLowerCase(), corridorConfiguration(c)]));
  return { message: "Payout configuration fetched successfully", data };
}

function createQuotation(ctx: Ctx, remittance: boolean): PayoutQuotationRow {
  const { body, domain } = ctx;
  const amount = oneAmount(body, "PAYOUT");
  const customer = verifiedCustomer(ctx, body.customer_id);
  let remitterId: string | undefined;
  if (remittance) {
    const id = String(body.remitter_id).toLowerCase();
    if (!UUID.test(id) || !domain.store.remitters.owned(ctx.org.id, id).row) {
      throw badRequest("UNKNOWN_ERROR", "Remitter not found", "remitter_id", "No remitter with this ID in your organization.");
    }
    remitterId = id;
  }
  const corridor = PAYOUT_CORRIDORS[String(body.fiat).toUpperCase()];
  if (!corridor) throw badRequest("INPUT_MALFORMED", "Invalid value for fiat", "fiat", `Must be one of: ${Object.keys(PAYOUT_CORRIDORS).join(", ")}.`);
  const asset = oneOf("asset", body.asset, corridor.assets);
  const network = oneOf("network", body.network, corridor.networks);
  const method = oneOf("payment_method", body.payment_method, Object.keys(corridor.methods));
  const bank = verifiedBank(ctx, customer, body.bank_id);
  const risk = (body.risk_parameters ?? {}) as Record<string, unknown>;
  const missingRisk = corridor.requiredRiskParameters.filter((key) => risk[key] === undefined || risk[key] === "");
  if (missingRisk.length > 0) {
    throw new ApiError(400, "REQ_FIELD_MISSING", `Missing required risk parameters: ${missingRisk.join(", ")}`, Object.fromEntries(missingRisk.map((k) => [`risk_parameters.${k}`, ["This field is required."]])));
  }
  checkEndUserIp(risk.ip_address);
  const quote = quotePayout(corridor.rate, amount.field === "sending_amount" ? { sending: amount.value } : { receiving: amount.value });
  const bounds = corridor.methods[method]!;
  // The document's bounds are exclusive: greater than 2,500 INR; less than 500,000 INR for IMPS.
  if (quote.fiatAmount <= bounds.minFiat) {
    throw badRequest("PAYOUT_AMOUNT_BELOW_MIN", "Entered amount is less than minimum transaction amount", amount.field, `The beneficiary must receive more than ${bounds.minFiat} ${corridor.fiat}.`);
  }
  if (quote.fiatAmount >= bounds.maxFiat) {
    throw badRequest("PAYOUT_AMOUNT_ABOVE_MAX", "Entered amount exceeds maximum transaction amount", amount.field, `The beneficiary must receive less than ${bounds.maxFiat} ${corridor.fiat} by ${method}.`);
  }
  checkRisk(domain, customer, risk, "payout", corridor.fiat, quote.fiatAmount);
  const now = domain.clock.nowMs();
  const quotation: PayoutQuotationRow = {
    id: randomUUID(),
    org: ctx.org.id,
    customer_id: customer.id,
    bank_id: bank.id,
    remitter_id: remitterId,
    asset,
    fiat: corridor.fiat,
    network,
    payment_method: method,
    sending_amount: quote.sending_amount,
    rate: quote.rate,
    receiving_amount: quote.receiving_amount,
    fees: quote.fees,
    wallet_address: depositAddress(network),
    created_at: new Date(now).toISOString(),
    updated_at: new Date(now).toISOString(),
    expiry_time: new Date(now + domain.settings.quotationTtlSeconds * 1000).toISOString(),
    requested_amount: amount.raw,
  };
  domain.store.payoutQuotations.put(quotation);
  return quotation;
}

export function createPayoutQuotation(ctx: Ctx): HandlerResult {
  return { message: "Quotation created successfully", data: payoutQuotationView(createQuotation(ctx, false)) };
}

export function createRemittancePayoutQuotation(ctx: Ctx): HandlerResult {
  return { message: "Quotation created successfully", data: payoutQuotationView(createQuotation(ctx, true)) };
}

export function getPayoutQuotation(ctx: Ctx): HandlerResult {
  const quotation = ctx.domain.store.payoutQuotations.owned(ctx.org.id, String(ctx.params.quotation_id).toLowerCase()).row;
  if (!quotation) throw badRequest("UNKNOWN_ERROR", "Quotation not found", "quotation_id");
  return { message: "Quotation fetched successfully", data: payoutQuotationView(quotation) };
}

export function initiatePayout(ctx: Ctx): HandlerResult {
  const { body, domain, org } = ctx;
  requireMembers(body, ["quotation_id"]);
  const quotationId = String(body.quotation_id).toLowerCase();
  const quotation = domain.store.payoutQuotations.owned(org.id, quotationId).row;
  if (!quotation) throw badRequest("PAYOUT_QUOTATION_NOT_FOUND", "Quotation not found", "quotation_id");
  const reference = text(body, "client_reference_id") ?? null;
  if (reference !== null && domain.store.payouts.byIndex("clientRef", `${org.id}|${reference}`)) {
    throw badRequest("PAYOUT_DUPLICATE_CLIENT_REF_ID", "client_reference_id already exists", "client_reference_id");
  }
  if (quotation.order_id) throw badRequest("PAYOUT_QUOTATION_LINKED", "Quotation already backs another order", "quotation_id");
  if (expired(ctx, quotation.expiry_time)) throw badRequest("PAYOUT_QUOTATION_EXPIRED", "Quotation expired; create a new one", "quotation_id");
  const now = domain.clock.iso();
  const payout: PayoutRow = {
    id: randomUUID(),
    org: org.id,
    quotation_id: quotation.id,
    customer_id: quotation.customer_id,
    bank_id: quotation.bank_id,
    remitter_id: quotation.remitter_id,
    asset: quotation.asset,
    network: quotation.network,
    fiat: quotation.fiat,
    rate: quotation.rate,
    sending_amount: quotation.sending_amount,
    receiving_amount: quotation.receiving_amount,
    client_reference_id: reference,
    fees: quotation.fees,
    status: "PROCESSING",
    wallet_address: quotation.wallet_address,
    failure_reason: null,
    created_at: now,
    updated_at: now,
  };
  quotation.order_id = payout.id;
  domain.store.payoutQuotations.put(quotation);
  domain.store.payouts.put(payout);
  domain.plan("payout", payout, payoutPlan(quotation.requested_amount, payout.id));
  return { message: "Payout initiated successfully", data: payoutView(payout) };
}

export function getPayout(ctx: Ctx): HandlerResult {
  const payout = ctx.domain.store.payouts.owned(ctx.org.id, String(ctx.params.payout_id).toLowerCase()).row;
  if (!payout) throw badRequest("PAYOUT_INVALID_PAYOUT_ID", "Invalid payout ID", "payout_id");
  return { message: "Payout fetched successfully", data: payoutView(payout) };
}

export function listPayoutHistory(ctx: Ctx): HandlerResult {
  const rows = historyFilters(ctx, ctx.domain.store.payouts.filter((p) => p.org === ctx.org.id), PAYOUT_STATUSES);
  const page = paginate(ctx, rows);
  return { message: "Payout history fetched successfully", data: { ...page, results: page.results.map(payoutView) } };
}

export const getPayoutLimits = (ctx: Ctx) => limitsOf(ctx, "payout");
export const fetchPayoutRate = (ctx: Ctx) =>
  fetchRate(ctx, Object.fromEntries(Object.entries(PAYOUT_CORRIDORS).map(([fiat, c]) => [fiat, { rate: c.rate, assets: c.assets }])));
export const savePayoutEdd = (ctx: Ctx) => saveEdd(ctx, "payout");
export const listPayoutEdd = (ctx: Ctx) => listEdd(ctx, "payout");
