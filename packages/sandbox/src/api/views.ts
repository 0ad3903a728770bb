// What each record looks like on the wire: the members the document lists for it, nothing internal.
import { parse, toNumber } from "../domain/decimal.js";
import type { RecordType, RowOf } from "../record-kinds.js";
import type {
  BankRow,
  CustomerRow,
  EddRow,
  PayinFees,
  PayinQuotationRow,
  PayinRow,
  PayoutQuotationRow,
  PayoutRow,
  WalletRow,
} from "../records/rows.js";

export function customerView(c: CustomerRow) {
  return {
    id: c.id,
    client_reference_id: c.client_reference_id,
    full_name: c.full_name,
    email: c.email,
    phone: c.phone,
    country: c.country,
    type: c.type,
    status: c.status,
    failure_reason: c.failure_reason,
    document_type: c.document_type,
  };
}

export function bankView(b: BankRow) {
  return {
    id: b.id,
    customer_id: b.customer_id,
    country: b.country,
    bank_account_type: b.bank_account_type,
    identifiers: b.identifiers,
    bank_account_status: b.bank_account_status,
    beneficiary_name: b.beneficiary_name,
    bank_name: b.bank_name,
    failure_reason: b.failure_reason,
  };
}

export function walletView(w: WalletRow) {
  return {
    id: Number(w.id),
    wallet_address: w.wallet_address,
    network: w.network,
    label: w.label,
    status: w.status,
    is_visible: w.label !== "",
    created_at: w.created_at,
  };
}

export function payoutQuotationView(q: PayoutQuotationRow) {
  return {
    id: q.id,
    customer_id: q.customer_id,
    bank_id: q.bank_id,
    remitter_id: q.remitter_id,
    asset: q.asset,
    fiat: q.fiat,
    network: q.network,
    sending_amount: q.sending_amount,
    rate: q.rate,
    receiving_amount: q.receiving_amount,
    fees: q.fees,
    wallet_address: q.wallet_address,
    created_at: q.created_at,
    expiry_time: q.expiry_time,
  };
}

/** Payin fee members are JSON numbers in the spec: computed exactly as decimal strings, converted only here. */
export function payinFeesView(fees: PayinFees): Record<keyof PayinFees, number> {
  const out = {} as Record<keyof PayinFees, number>;
  for (const [key, value] of Object.entries(fees) as Array<[keyof PayinFees, string | number]>) {
    out[key] = typeof value === "number" ? value : toNumber(parse(value));
  }
  return out;
}

export function payinQuotationView(q: PayinQuotationRow) {
  return {
    id: q.id,
    customer_id: q.customer_id,
    bank_id: q.bank_id,
    asset: q.asset,
    fiat: q.fiat,
    network: q.network,
    payment_method: q.payment_method,
    sending_amount: q.sending_amount,
    rate: q.rate,
    receiving_amount: q.receiving_amount,
    fees: payinFeesView(q.fees),
    wallet_address: q.wallet_address,
    created_at: q.created_at,
    expiry_time: q.expiry_time,
  };
}

export function payoutView(p: PayoutRow) {
  return {
    id: p.id,
    quotation_id: p.quotation_id,
    bank_id: p.bank_id,
    asset: p.asset,
    network: p.network,
    fiat: p.fiat,
    rate: p.rate,
    sending_amount: p.sending_amount,
    receiving_amount: p.receiving_amount,
    // The record types it as a string; an order created without one shows "" (its events carry null).
    client_reference_id: p.client_reference_id ?? "",
    fees: p.fees,
    status: p.status,
    wallet_address: p.wallet_address,
    transaction_hash: p.transaction_hash,
    utr: p.utr,
    failure_reason: p.failure_reason,
    updated_at: p.updated_at,
    created_at: p.created_at,
    customer: { sender: { id: p.remitter_id ?? p.customer_id }, receiver: { id: p.customer_id } },
  };
}

export function payinView(p: PayinRow) {
  return {
    id: p.id,
    quotation_id: p.quotation_id,
    customer_id: p.customer_id,
    bank_id: p.bank_id,
    asset: p.asset,
    fiat: p.fiat,
    network: p.network,
    payment_method: p.payment_method,
    sending_amount: p.sending_amount,
    rate: p.rate,
    receiving_amount: p.receiving_amount,
    fees: payinFeesView(p.fees),
    client_reference_id: p.client_reference_id,
    wallet_address: p.wallet_address,
    transaction_reference_id: p.transaction_reference_id,
    status: p.status,
    failure_reason: p.failure_reason,
    refund_reason: p.refund_reason,
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

/** EDD records have no view in the spec; the control API answers these members. */
export const eddControlView = (edd: EddRow) => ({ id: edd.id, customer_id: edd.customer_id, status: edd.status });

/**
 * Each kind's record as the control API (and the dashboard's detail) answers it, by event type: an event type of
 * the registry without its view here fails to type-check.
 *
 * @example
 * RECORD_VIEWS.BANK(bank); // { id, customer_id, bank_account_status, ... }
 */
export const RECORD_VIEWS: { readonly [T in RecordType]: (row: RowOf<T>) => unknown } = {
  CUSTOMER: customerView,
  BANK: bankView,
  PAYIN: payinView,
  PAYOUT: payoutView,
  EDD: eddControlView,
};
