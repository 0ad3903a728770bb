// The tables: one per kind of record. A row is kept whole as JSON (`json`); the members the handlers look
// rows up by are copied into columns with indexes, so no lookup or page reads a whole table. `seq` (the rowid)
// is the insertion order, which breaks ties exactly as the in-memory Maps of earlier sandboxes did. Pages are
// read newest first (ORDER BY created_at DESC, seq): the (created_at DESC, seq) indexes serve that mixed
// order directly, deep offsets included; an index on (created_at, seq) could only serve it with a sort.
import type { BankRow, CustomerRow, EddRow, EventRow, PayinRow, PayoutRow, WalletRow } from "./records.js";

/** The schema version in PRAGMA user_version. 0 with `records`/`meta` tables: the old sql.js format. */
export const SCHEMA_VERSION = 1;

type Value = string | number | null;

export interface TableSpec<T> {
  kind: string;
  /** Lookup columns beside id, org, created_at, planned and json, and how each is read from a row. */
  columns: Record<string, (row: T) => Value>;
  /** Column lists of the indexes (beyond the unique id). */
  indexes: string[];
  /** Keep the number of rows per organization (row_count), so a list's unfiltered count is one lookup. */
  counted?: boolean;
}

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

const customer: TableSpec<CustomerRow> = {
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

const bank: TableSpec<BankRow> = {
  kind: "bank",
  columns: {
    customer_id: (r) => r.customer_id,
    dedupe: (r) => (r.source === "standard" ? bankDedupeKey(r) : null),
  },
  indexes: ["customer_id, created_at, seq", "org, dedupe"],
};

const wallet: TableSpec<WalletRow> = {
  kind: "wallet",
  columns: { customer_id: (r) => r.customer_id },
  indexes: ["customer_id"],
};

const payout: TableSpec<PayoutRow> = {
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

const payin: TableSpec<PayinRow> = {
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

const edd: TableSpec<EddRow> = {
  kind: "edd",
  columns: { customer_id: (r) => r.customer_id, module: (r) => r.module, status: (r) => r.status },
  indexes: ["customer_id, module, status", "org, module, created_at, seq"],
};

const event: TableSpec<EventRow> = {
  kind: "event",
  columns: {},
  indexes: ["org, created_at, seq", "created_at, seq"],
};

const plain = (kind: string): TableSpec<never> => ({ kind, columns: {}, indexes: [] });

export const TABLES = {
  customer,
  bank,
  wallet,
  payout,
  payin,
  edd,
  event,
  payoutQuotation: plain("payout_quotation"),
  payinQuotation: plain("payin_quotation"),
  remitter: plain("remitter"),
  senderKyc: plain("sender_kyc"),
  orgSettings: plain("org_settings"),
} as const;

/** The statements that create a table, its indexes and its count triggers, when missing. */
export function tableSql(spec: TableSpec<never>): string {
  const extra = Object.keys(spec.columns)
    .map((name) => `, ${name}`)
    .join("");
  const lines = [
    `CREATE TABLE IF NOT EXISTS ${spec.kind} (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, org TEXT NOT NULL, created_at TEXT NOT NULL, planned INTEGER NOT NULL${extra}, json TEXT NOT NULL);`,
    `CREATE INDEX IF NOT EXISTS ${spec.kind}_planned ON ${spec.kind} (planned) WHERE planned = 1;`,
    ...spec.indexes.map(
      (columns) =>
        `CREATE INDEX IF NOT EXISTS ${spec.kind}_${columns.replace(/\W+/g, "_")} ON ${spec.kind} (${columns});`,
    ),
  ];
  if (spec.counted) {
    // Rows never change organization, so inserts and deletes are all that move the count.
    lines.push(
      `CREATE TRIGGER IF NOT EXISTS ${spec.kind}_counted_insert AFTER INSERT ON ${spec.kind} BEGIN ` +
        `INSERT INTO row_count (kind, org, n) VALUES ('${spec.kind}', NEW.org, 1) ON CONFLICT (kind, org) DO UPDATE SET n = n + 1; END;`,
      `CREATE TRIGGER IF NOT EXISTS ${spec.kind}_counted_delete AFTER DELETE ON ${spec.kind} BEGIN ` +
        `UPDATE row_count SET n = n - 1 WHERE kind = '${spec.kind}' AND org = OLD.org; END;`,
    );
  }
  return lines.join("\n");
}

export const SCHEMA_SQL = [
  "CREATE TABLE IF NOT EXISTS row_count (kind TEXT NOT NULL, org TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (kind, org)) WITHOUT ROWID;",
  ...Object.values(TABLES).map((spec) => tableSql(spec as TableSpec<never>)),
  "CREATE TABLE IF NOT EXISTS sandbox_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);",
].join("\n");
