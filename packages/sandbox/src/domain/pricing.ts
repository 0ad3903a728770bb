// Quotation arithmetic, exact (decimal.ts: BigInt, no floating point). Fees are percentages of the gross fiat
// amount, each rounded half-up to the fiat's decimals; GST is computed on the rounded fee it taxes. The amount the
// customer receives is rounded down (the exchange never pays out more than computed); the amount the customer
// must send to cover a requested receiving amount is rounded up. The requested amount itself is never rounded:
// the caller's value comes back exactly, written with the currency's decimals (precision is checked before).
//
// Payout (crypto → fiat):  gross = sending × rate, rounded down to the fiat's decimals;
//                          receiving = gross − service_fee − client_fee − client_gst − tds   (exactly).
// Payin  (fiat → crypto):  net = sending − service − service_gst − pg − pg_gst − client − client_gst (exactly);
//                          receiving = net / rate, rounded down to the crypto's decimals.
// Payin fee members are JSON numbers in the spec: they are kept here as decimal strings and turned into numbers
// only by the views, at the very end.
import { PAYIN_FEES, PAYOUT_FEES, RATE_DECIMALS } from "./catalog.js";
import {
  add,
  dec,
  div,
  eq,
  format,
  gte,
  lt,
  mul,
  ONE,
  round,
  sign,
  sub,
  sum,
  ulp,
  ZERO,
  type Decimal,
} from "./decimal.js";
import type { PayinFees, PayoutFees } from "../records/rows.js";

/** Decimals of the corridor's fiat and crypto (the catalog's CURRENCY_DECIMALS). */
export interface Precision {
  fiat: number;
  crypto: number;
}

/** Exactly one of the two amounts, already checked to fit its currency's decimals. */
export type RequestedAmount = { sending: Decimal } | { receiving: Decimal };

/** `amount × share`, rounded half-up to `scale` decimals: one fee line. */
const fee = (amount: Decimal, share: string, scale: number) => round(mul(amount, dec(share)), scale, "half-up");

/**
 * The gross amount (at `scale` decimals) that nets `target`: walking up one unit at a time from below `estimate`,
 * the first gross whose net reaches the target. Fees only grow with the gross, so the net grows by at most one unit
 * a step: the gross found nets less than one unit above the target, and exactly the target when the target has
 * `scale` decimals. The estimate is within a few units, so the walk is a few steps.
 */
function grossFor(target: Decimal, estimate: Decimal, net: (gross: Decimal) => Decimal, scale: number): Decimal {
  const unit = ulp(scale);
  const tenUnits = { units: 10n, scale };
  let gross = estimate;
  while (sign(gross) > 0 && gte(net(gross), target)) gross = sub(gross, tenUnits);
  if (sign(gross) <= 0) gross = unit;
  while (lt(net(gross), target)) gross = add(gross, unit);
  return gross;
}

function payoutFees(gross: Decimal, fiatDecimals: number) {
  const service = fee(gross, PAYOUT_FEES.service, fiatDecimals);
  const client = fee(gross, PAYOUT_FEES.client, fiatDecimals);
  const clientGst = fee(client, PAYOUT_FEES.clientGst, fiatDecimals);
  const tds = fee(gross, PAYOUT_FEES.tds, fiatDecimals);
  return { service, client, clientGst, tds, total: sum([service, client, clientGst, tds]) };
}

/** The share of the gross the payout fees take, before rounding: for the first estimate of a gross. */
const PAYOUT_FEE_SHARE = sum([
  dec(PAYOUT_FEES.service),
  mul(dec(PAYOUT_FEES.client), add(ONE, dec(PAYOUT_FEES.clientGst))),
  dec(PAYOUT_FEES.tds),
]);

/** A payout quote, exact. Bounds and limits read it as is; formatPayoutQuote writes it for the response. */
export interface PayoutQuote {
  sending: Decimal;
  /** What the beneficiary receives. */
  receiving: Decimal;
  /** The fiat value of the crypto sent, rounded down: receiving + every fee, exactly. */
  gross: Decimal;
  fees: { service: Decimal; client: Decimal; clientGst: Decimal; tds: Decimal };
}

/** `sending` is crypto sent, `receiving` fiat received. `baseRate` is fiat per crypto (a decimal string). */
export function quotePayout(baseRate: string, amount: RequestedAmount, precision: Precision): PayoutQuote {
  const rate = dec(baseRate);
  let sending: Decimal;
  let gross: Decimal;
  if ("sending" in amount) {
    sending = amount.sending;
    gross = round(mul(sending, rate), precision.fiat, "down");
  } else {
    const netOf = (g: Decimal) => sub(g, payoutFees(g, precision.fiat).total);
    const estimate = div(amount.receiving, sub(ONE, PAYOUT_FEE_SHARE), precision.fiat, "down");
    gross = grossFor(amount.receiving, estimate, netOf, precision.fiat);
    // The crypto that covers the gross, rounded up: worth the gross plus less than a cent as long as the smallest
    // crypto step (0.000001) is worth less than a cent, i.e. the rate is below 10,000; checked, not assumed.
    sending = div(gross, rate, precision.crypto, "up");
    if (!eq(round(mul(sending, rate), precision.fiat, "down"), gross))
      throw new Error(`Rate ${baseRate} is too large for ${precision.crypto} crypto decimals`);
  }
  const { total, ...fees } = payoutFees(gross, precision.fiat);
  const receiving = sub(gross, total);
  if ("receiving" in amount && !eq(receiving, amount.receiving))
    throw new Error("Payout quotation does not reproduce the requested amount");
  return { sending, receiving, gross, fees };
}

/** The response members of a payout quote: decimal strings with the currencies' decimals. */
export function formatPayoutQuote(
  q: PayoutQuote,
  precision: Precision,
): { sending_amount: string; receiving_amount: string; rate: string; fees: PayoutFees } {
  const fiat = (d: Decimal) => format(d, precision.fiat);
  return {
    sending_amount: format(q.sending, precision.crypto),
    receiving_amount: fiat(q.receiving),
    // Informative, fee-inclusive: what the beneficiary gets per crypto sent, half-up.
    rate: format(div(q.receiving, q.sending, RATE_DECIMALS, "half-up")),
    fees: {
      service_fee: fiat(q.fees.service),
      client_fee: fiat(q.fees.client),
      client_gst: fiat(q.fees.clientGst),
      tds: fiat(q.fees.tds),
    },
  };
}

function payinFees(paid: Decimal, fiatDecimals: number) {
  const service = fee(paid, PAYIN_FEES.service, fiatDecimals);
  const serviceGst = fee(service, PAYIN_FEES.serviceGst, fiatDecimals);
  const pg = fee(paid, PAYIN_FEES.pg, fiatDecimals);
  const pgGst = fee(pg, PAYIN_FEES.pgGst, fiatDecimals);
  const client = fee(paid, PAYIN_FEES.client, fiatDecimals);
  const clientGst = fee(client, PAYIN_FEES.clientGst, fiatDecimals);
  return {
    service,
    serviceGst,
    pg,
    pgGst,
    client,
    clientGst,
    total: sum([service, serviceGst, pg, pgGst, client, clientGst]),
  };
}

const PAYIN_FEE_SHARE = sum(
  (
    [
      [PAYIN_FEES.service, PAYIN_FEES.serviceGst],
      [PAYIN_FEES.pg, PAYIN_FEES.pgGst],
      [PAYIN_FEES.client, PAYIN_FEES.clientGst],
    ] as const
  ).map(([share, gst]) => mul(dec(share), add(ONE, dec(gst)))),
);

/** A payin quote, exact. Bounds and limits read it as is; formatPayinQuote writes it for the response. */
export interface PayinQuote {
  /** What the customer pays. */
  sending: Decimal;
  receiving: Decimal;
  rate: Decimal;
  /** The fiat left once every fee is taken: sending − fees, exactly. */
  net: Decimal;
  fees: { service: Decimal; serviceGst: Decimal; pg: Decimal; pgGst: Decimal; client: Decimal; clientGst: Decimal };
}

/** `sending` is fiat paid in, `receiving` crypto delivered. `baseRate` is fiat per crypto (a decimal string). */
export function quotePayin(baseRate: string, amount: RequestedAmount, precision: Precision): PayinQuote {
  const rate = dec(baseRate);
  const netOf = (p: Decimal) => sub(p, payinFees(p, precision.fiat).total);
  let paid: Decimal;
  let delivered: Decimal;
  if ("sending" in amount) {
    paid = amount.sending;
    delivered = div(netOf(paid), rate, precision.crypto, "down");
  } else {
    // The smallest fiat amount (walking up by one fiat unit) whose net buys the crypto asked for: the net covers
    // receiving × rate with less than one fiat unit to spare.
    delivered = amount.receiving;
    const target = mul(delivered, rate);
    paid = grossFor(target, div(target, sub(ONE, PAYIN_FEE_SHARE), precision.fiat, "down"), netOf, precision.fiat);
  }
  const { total, ...fees } = payinFees(paid, precision.fiat);
  return { sending: paid, receiving: delivered, rate, net: sub(paid, total), fees };
}

/**
 * The response members of a payin quote: decimal strings with the currencies' decimals. The fees stay decimal
 * strings here; the views answer them as the JSON numbers the spec types.
 */
export function formatPayinQuote(
  q: PayinQuote,
  precision: Precision,
): { sending_amount: string; receiving_amount: string; rate: string; fees: PayinFees } {
  const fiat = (d: Decimal) => format(d, precision.fiat);
  const crypto = (d: Decimal) => format(div(d, q.rate, precision.crypto, "half-up"));
  return {
    sending_amount: fiat(q.sending),
    receiving_amount: format(q.receiving, precision.crypto),
    rate: format(q.rate, RATE_DECIMALS, "half-up"),
    fees: {
      client_fee_fiat: fiat(q.fees.client),
      client_fee_crypto: crypto(q.fees.client),
      service_fee: fiat(q.fees.service),
      pg_fee: fiat(q.fees.pg),
      client_gst_fiat: fiat(q.fees.clientGst),
      client_gst_crypto: crypto(q.fees.clientGst),
      service_gst: fiat(q.fees.serviceGst),
      pg_gst: fiat(q.fees.pgGst),
      tds: fiat(ZERO),
      // Fiat paid per crypto delivered, every fee included, half-up (0 when nothing would be delivered).
      gross_effective_exchange_rate: format(
        sign(q.receiving) > 0 ? div(q.sending, q.receiving, RATE_DECIMALS, "half-up") : ZERO,
        RATE_DECIMALS,
      ),
    },
  };
}
