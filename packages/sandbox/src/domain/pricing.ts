// Quotation arithmetic. Fees are percentages of the gross fiat amount; the rate returned is fee-inclusive, as the
// document describes. Fiat has 2 decimals, crypto 6, rates 4; amounts leave as decimal strings (payin fees are
// numbers, as the document types them).
import type { PayinFees, PayoutFees } from "../store/records.js";

const PAYOUT_FEES = { service: 0.005, client: 0.0025, clientGst: 0.18, tds: 0.01 };
const PAYIN_FEES = { service: 0.005, serviceGst: 0.18, pg: 0.002, pgGst: 0.18, client: 0.0025, clientGst: 0.18 };

const round = (value: number, decimals: number) => Number(value.toFixed(decimals));
const fiat = (value: number) => value.toFixed(2);
const crypto = (value: number) => value.toFixed(6);

export interface PayoutQuote {
  sending_amount: string;
  receiving_amount: string;
  rate: string;
  fees: PayoutFees;
  /** What the beneficiary receives, as a number, for the bounds and limits. */
  fiatAmount: number;
}

/** `sending` is crypto sent, `receiving` fiat received; exactly one is given. `baseRate` is fiat per crypto. */
export function quotePayout(baseRate: number, amount: { sending?: number; receiving?: number }): PayoutQuote {
  const feeShare = PAYOUT_FEES.service + PAYOUT_FEES.client * (1 + PAYOUT_FEES.clientGst) + PAYOUT_FEES.tds;
  const gross = amount.sending !== undefined ? amount.sending * baseRate : amount.receiving! / (1 - feeShare);
  const sending = amount.sending ?? gross / baseRate;
  const service = gross * PAYOUT_FEES.service;
  const client = gross * PAYOUT_FEES.client;
  const clientGst = client * PAYOUT_FEES.clientGst;
  const tds = gross * PAYOUT_FEES.tds;
  const receiving = amount.receiving ?? round(gross - service - client - clientGst - tds, 2);
  return {
    sending_amount: crypto(sending),
    receiving_amount: fiat(receiving),
    rate: (receiving / sending).toFixed(4),
    fees: { service_fee: fiat(service), client_fee: fiat(client), client_gst: fiat(clientGst), tds: fiat(tds) },
    fiatAmount: receiving,
  };
}

export interface PayinQuote {
  sending_amount: string;
  receiving_amount: string;
  rate: string;
  fees: PayinFees;
  /** What the customer pays, as a number, for the bounds and limits. */
  fiatAmount: number;
}

/** `sending` is fiat paid in, `receiving` crypto delivered; exactly one is given. `baseRate` is fiat per crypto. */
export function quotePayin(baseRate: number, amount: { sending?: number; receiving?: number }): PayinQuote {
  const f = PAYIN_FEES;
  const feeShare = f.service * (1 + f.serviceGst) + f.pg * (1 + f.pgGst) + f.client * (1 + f.clientGst);
  const paid = amount.sending ?? (amount.receiving! * baseRate) / (1 - feeShare);
  const service = paid * f.service;
  const pg = paid * f.pg;
  const client = paid * f.client;
  const net = paid - service * (1 + f.serviceGst) - pg * (1 + f.pgGst) - client * (1 + f.clientGst);
  const delivered = amount.receiving ?? net / baseRate;
  return {
    sending_amount: fiat(paid),
    receiving_amount: crypto(delivered),
    rate: baseRate.toFixed(4),
    fees: {
      client_fee_fiat: round(client, 2),
      client_fee_crypto: round(client / baseRate, 6),
      service_fee: round(service, 2),
      pg_fee: round(pg, 2),
      client_gst_fiat: round(client * f.clientGst, 2),
      client_gst_crypto: round((client * f.clientGst) / baseRate, 6),
      service_gst: round(service * f.serviceGst, 2),
      pg_gst: round(pg * f.pgGst, 2),
      tds: 0,
      gross_effective_exchange_rate: round(paid / delivered, 4),
    },
    fiatAmount: paid,
  };
}
