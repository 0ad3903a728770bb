// Payins: configuration, quotations, orders (with UTR) and their history. The payin quotation body is not
// published; the sandbox reads the members of the payin order record (see README).
import { badRequest } from "../domain/api-error.js";
import type { HandlerResult } from "./route.js";
import { decimalsOf, PAYIN_CORRIDORS } from "../domain/catalog.js";
import { dec, format, gt, lt, type Decimal } from "../domain/decimal.js";
import { payinPlan } from "../domain/magic.js";
import { formatPayinQuote, quotePayin } from "../domain/pricing.js";
import { checkEndUserIp, checkRisk } from "../domain/risk.js";
import { PAYIN_STATUSES } from "../records/statuses.js";
import type { PayinQuotationRow, PayinRow } from "../records/rows.js";
import { historyPage } from "./list-filters.js";
import { requireMembers } from "./body-members.js";
import { UUID } from "./lookups.js";
import { fetchRate, limitsOf, listEdd, saveEdd } from "./module-reads.js";
import { checkQuotationUsable, checkReferenceUnused, orderStart, saveOrder } from "./order-initiation.js";
import {
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
import type { OperationContext } from "./validated-request.js";
import { payinQuotationView, payinView } from "./views.js";

/** A UTR: 12 to 22 letters and digits (IMPS references are 12 digits, NEFT/RTGS ones up to 22 characters). */
export const UTR_FORMAT = /^[A-Za-z0-9]{12,22}$/;

export function payinConfiguration(): HandlerResult {
  const data = Object.fromEntries(
    Object.values(PAYIN_CORRIDORS).map((c) => [
      c.fiat.toLowerCase(),
      {
        assets: c.assets,
        networks: c.networks,
        payment_methods: Object.fromEntries(
          Object.entries(c.methods).map(([method, m]) => [
            method,
            {
              bank_account_type: m.rail,
              min_fiat_amount: format(dec(m.minFiat), decimalsOf(c.fiat)),
              max_fiat_amount: format(dec(m.maxFiat), decimalsOf(c.fiat)),
            },
          ]),
        ),
      },
    ]),
  );
  return { message: "Payin configuration fetched successfully", data };
}

export async function createPayinQuotation(ctx: OperationContext<"createPayinQuotation">): Promise<HandlerResult> {
  const { body, domain } = ctx;
  requireMembers(body, ["customer_id", "bank_id", "asset", "fiat", "network", "payment_method", "wallet_address"]);
  const amount = oneAmount(body, "PAYIN");
  const customer = await verifiedCustomer(ctx, body.customer_id);
  const { corridor, asset, network, method } = chooseInCorridor(PAYIN_CORRIDORS, body);
  const bank = await verifiedBank(ctx, customer, body.bank_id);
  const rules = corridor.methods[method]!;
  if (bank.bank_account_type !== rules.rail) {
    throw badRequest(
      "BANK_MODE_MISMATCH",
      "Bank account rail does not match payment_method",
      "payment_method",
      `${method} needs a ${rules.rail} bank account.`,
    );
  }
  const risk = body.risk_parameters ?? {};
  checkEndUserIp(risk.ip_address);
  // The requested amount is in the fiat (sending) or the asset (receiving); it is never rounded.
  checkPrecision(amount, amount.field === "sending_amount" ? corridor.fiat : asset);
  const precision = precisionOf(corridor.fiat, asset);
  const quote = quotePayin(corridor.rate, requestedAmount(amount), precision);
  const fiat = (d: Decimal) => fiatText(d, corridor.fiat);
  // Payin bounds are inclusive, on what the customer pays, compared exactly.
  if (lt(quote.sending, dec(rules.minFiat))) {
    throw badRequest(
      "PAYIN_AMOUNT_BELOW_MIN",
      "Entered amount is less than minimum transaction amount",
      amount.field,
      `Pay at least ${fiat(dec(rules.minFiat))}; ${amount.raw} pays ${fiat(quote.sending)}.`,
    );
  }
  if (gt(quote.sending, dec(rules.maxFiat))) {
    throw badRequest(
      "PAYIN_AMOUNT_ABOVE_MAX",
      "Entered amount exceeds maximum transaction amount",
      amount.field,
      `Pay at most ${fiat(dec(rules.maxFiat))} by ${method}; ${amount.raw} pays ${fiat(quote.sending)}.`,
    );
  }
  await checkRisk(domain, customer, risk, "payin", corridor.fiat, quote.sending);
  const priced = formatPayinQuote(quote, precision);
  const quotation: PayinQuotationRow = {
    ...(await quotationTerms(ctx, { customer, bank, asset, fiat: corridor.fiat, network, method }, priced, amount)),
    fees: priced.fees,
    wallet_address: body.wallet_address,
  };
  await domain.store.payinQuotations.put(quotation);
  return { message: "Quotation created successfully", data: payinQuotationView(quotation) };
}

export async function getPayinQuotation(ctx: OperationContext<"getPayinQuotation">): Promise<HandlerResult> {
  const quotation = (await ctx.domain.store.payinQuotations.owned(ctx.org.id, ctx.params.quotation_id.toLowerCase()))
    .row;
  if (!quotation) throw badRequest("INPUT_MALFORMED", "Quotation not found", "quotation_id");
  return { message: "Quotation fetched successfully", data: payinQuotationView(quotation) };
}

/** The UTR is read from transaction_reference_id (the request name is not published; see the spec). */
export async function initiatePayin(ctx: OperationContext<"initiatePayin">): Promise<HandlerResult> {
  const { body, domain, org } = ctx;
  requireMembers(body, ["quotation_id", "client_reference_id", "transaction_reference_id"]);
  const utr = body.transaction_reference_id;
  if (!UTR_FORMAT.test(utr))
    throw badRequest(
      "PAYIN_INVALID_UTR_FORMAT",
      "Invalid UTR format",
      "transaction_reference_id",
      "A UTR has 12 to 22 letters and digits.",
    );
  const quotationId = body.quotation_id.toLowerCase();
  const quotation = UUID.test(quotationId)
    ? (await domain.store.payinQuotations.owned(org.id, quotationId)).row
    : undefined;
  if (!quotation) throw badRequest("PAYIN_QUOTATION_NOT_FOUND", "Quotation not found", "quotation_id");
  const reference = body.client_reference_id;
  await checkReferenceUnused(domain.store.payins, org.id, reference, "PAYIN");
  if (await domain.store.payins.first("org = ? AND utr = ?", org.id, utr.toUpperCase())) {
    throw badRequest("PAYIN_DUPLICATE_UTR", "UTR is linked to another payin", "transaction_reference_id");
  }
  await checkQuotationUsable(ctx, quotation, "PAYIN");
  const payin: PayinRow = {
    ...(await orderStart(ctx, quotation)),
    payment_method: quotation.payment_method,
    fees: quotation.fees,
    client_reference_id: reference,
    transaction_reference_id: utr,
    refund_reason: null,
  };
  await saveOrder(domain.store.payinQuotations, quotation, domain.store.payins, payin);
  await domain.plan("PAYIN", payin, payinPlan(quotation.requested_amount));
  return { message: "Payin initiated successfully", data: payinView(payin) };
}

export async function getPayin(ctx: OperationContext<"getPayin">): Promise<HandlerResult> {
  const payin = (await ctx.domain.store.payins.owned(ctx.org.id, ctx.params.payin_id.toLowerCase())).row;
  if (!payin) throw badRequest("INPUT_MALFORMED", "Payin not found", "payin_id");
  return { message: "Payin fetched successfully", data: payinView(payin) };
}

export async function listPayinHistory(ctx: OperationContext<"listPayinHistory">): Promise<HandlerResult> {
  const page = await historyPage(ctx, ctx.domain.store.payins, PAYIN_STATUSES);
  return { message: "Payin history fetched successfully", data: { ...page, results: page.results.map(payinView) } };
}

export const getPayinLimits = (ctx: OperationContext<"getPayinLimits">) => limitsOf(ctx, "payin");
export const fetchPayinRate = (ctx: OperationContext<"fetchPayinRate">) => fetchRate(ctx, PAYIN_CORRIDORS);
export const savePayinEdd = (ctx: OperationContext<"savePayinEdd">) => saveEdd(ctx, "payin");
export const listPayinEdd = (ctx: OperationContext<"listPayinEdd">) => listEdd(ctx, "payin");
