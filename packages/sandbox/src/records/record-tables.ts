// The tables of the kinds of record that announce webhook events (record-kinds.ts names them): the lookup
// columns copied out of each row and the indexes over them (see store/schema.ts for the layout every table shares).
import type { BankRow, CustomerRow, EddRow, PayinRow, PayoutRow } from "./rows.js";
import type { NamedTableSpec, Value } from "./table-spec.js";

const upper = (v: unknown): Value => (typeof v === "string" ? v.toUpperCase() : null);

/** The key under which a standard bank account is unique within an organization. */
export function bankDedupeKey(bank: Pick<BankRow, "bank_account_type" | "identifiers">): string {
  return bank.bank_account_type === "UPI"
    ? `UPI|${(bank.identifiers.vpa ?? "").toLowerCase()}`
    : `ACCOUNT_DETAILS|${bank.identifiers.account_number ?? ""}`;
}

/** The KYC document number another customer may not reuse (compared as text; the handler rechecks exactly). */
export function kycDocumentKey(data: Record<string, unknown> | undefined): Value {
  const number = (data?.document_details as { document_number?: unknown } | undefined)?.document_number;
  return typeof number === "string" || typeof number === "number" ? String(number) : null;
}

export const CUSTOMER_TABLE: NamedTableSpec<CustomerRow, "customer"> = {
  kind: "customer",
  columns: {
    client_ref: (r) => r.client_reference_id,
    email: (r) => r.email ?? null,
    phone: (r) => r.phone ?? null,
    status: (r) => r.status,
    kyc_document: (r) => (r.kyc ? kycDocumentKey(r.kyc.data) : null),
    kyc_tax: (r) => (r.kyc ? upper(r.kyc.data.tax_number) : null),
  },
  indexes: [
    "org, client_ref",
    "org, email",
    "org, phone",
    "org, created_at, seq",
    "org, created_at DESC, seq",
    "org, status, created_at DESC, seq",
    "org, kyc_document",
    "org, kyc_tax",
  ],
  counted: true,
};

export const BANK_TABLE: NamedTableSpec<BankRow, "bank"> = {
  kind: "bank",
  columns: {
    customer_id: (r) => r.customer_id,
    dedupe: (r) => (r.source === "standard" ? bankDedupeKey(r) : null),
  },
  indexes: ["customer_id, created_at, seq", "org, dedupe"],
};

export const PAYOUT_TABLE: NamedTableSpec<PayoutRow, "payout"> = {
  kind: "payout",
  columns: {
    client_ref: (r) => r.client_reference_id,
    customer_id: (r) => r.customer_id,
    status: (r) => r.status,
  },
  indexes: [
    "org, client_ref",
    "org, created_at, seq",
    "org, created_at DESC, seq",
    "org, status, created_at DESC, seq",
    "org, customer_id, created_at DESC, seq",
    "customer_id, created_at",
  ],
  counted: true,
};

export const PAYIN_TABLE: NamedTableSpec<PayinRow, "payin"> = {
  kind: "payin",
  columns: {
    client_ref: (r) => r.client_reference_id,
    utr: (r) => upper(r.transaction_reference_id),
    customer_id: (r) => r.customer_id,
    status: (r) => r.status,
  },
  indexes: [
    "org, client_ref",
    "org, utr",
    "org, created_at, seq",
    "org, created_at DESC, seq",
    "org, status, created_at DESC, seq",
    "org, customer_id, created_at DESC, seq",
    "customer_id, created_at",
  ],
  counted: true,
};

export const EDD_TABLE: NamedTableSpec<EddRow, "edd"> = {
  kind: "edd",
  columns: { customer_id: (r) => r.customer_id, module: (r) => r.module, status: (r) => r.status },
  indexes: ["customer_id, module, status", "org, module, created_at, seq"],
};
