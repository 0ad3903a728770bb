// The kinds of record the dashboard lists, each with its table, the view the API answers for it (so the
// dashboard shows what a client sees), its status, and the control API kind that moves it. The kinds that
// announce webhook events are the registry's (../record-kinds.ts), under their collection names; wallets and
// quotations are the dashboard's own. A kind whose table counts rows per organization pages on its
// (org, created_at) index, newest first, so 100k rows cost one page.
import { payinQuotationView, payoutQuotationView, RECORD_VIEWS, walletView } from "../api/views.js";
import type { SandboxDomain } from "../domain/sandbox-domain.js";
import { RECORD_KINDS as REGISTRY, RECORD_TYPES, type RecordCollection, type RecordType } from "../record-kinds.js";
import type { Store, Table } from "../store/store.js";

interface AnyRow {
  id: string;
  org: string;
  created_at: string;
}

export interface RecordKind {
  label: string;
  table(store: Store): Table<AnyRow>;
  view(row: AnyRow): unknown;
  /** The status shown in lists; quotations compute theirs from the organization's clock. */
  status(row: AnyRow, domain: SandboxDomain): string | Promise<string>;
  /** The event type whose POST /_sandbox/{collection}/{id}/transition moves it, when one does. */
  type?: RecordType;
  /** Whether the table has a client_ref column to search. */
  clientRef?: boolean;
  /** Whether it pages on the (org, created_at DESC, seq) index. */
  indexed?: boolean;
}

/**
 * The members that name a record in a list, tried in order (the first that is set is shown): a person's or an
 * account holder's name, a wallet's label, an order's amount. Keyed by the dashboard's kind name.
 */
const NAME_MEMBERS: Record<string, readonly (readonly string[])[]> = {
  customers: [["full_name"], ["email"]],
  banks: [["beneficiary_name"], ["bank_name"]],
  wallets: [["label"], ["wallet_address"]],
  payins: [["sending_amount", "fiat"]],
  payouts: [["receiving_amount", "fiat"]],
  payout_quotations: [["receiving_amount", "fiat"]],
  payin_quotations: [["sending_amount", "fiat"]],
  edd: [["module"]],
};

/**
 * The short name a list shows for a record: the first set entry of its kind's NAME_MEMBERS, its members joined
 * by a space ("1000.00 INR"); "" when none is set.
 *
 * @example
 * recordName("customers", { full_name: "Asha Verma" }); // "Asha Verma"
 */
export function recordName(kind: string, row: object): string {
  const members = row as Record<string, unknown>;
  for (const names of NAME_MEMBERS[kind] ?? []) {
    const values = names.map((name) => members[name]);
    if (values.every((value) => typeof value === "string" && value !== "")) return values.join(" ");
  }
  return "";
}

// Each kind's view takes its own row type; the table hands back those rows.
const as = <R>(view: (row: R) => unknown) => view as unknown as (row: AnyRow) => unknown;
const member = (name: string) => (row: AnyRow) => String((row as unknown as Record<string, unknown>)[name] ?? "");

/** A quotation is EXPIRED once its expiry_time has passed on its organization's clock, USED once an order took it. */
async function quotationStatus(row: AnyRow, domain: SandboxDomain): Promise<string> {
  const q = row as AnyRow & { expiry_time: string; order_id?: string };
  if (q.order_id) return "USED";
  return Date.parse(q.expiry_time) <= (await domain.clock(row.org)).now().getTime() ? "EXPIRED" : "ACTIVE";
}

/** How the dashboard shows a kind of the registry where it shows more than the control API answers. */
const DETAIL_VIEWS: Partial<Record<RecordType, (row: AnyRow) => unknown>> = {
  EDD: (row) => {
    const edd = row as AnyRow & { customer_id: string; module: string; status: string };
    return {
      id: edd.id,
      customer_id: edd.customer_id,
      module: edd.module,
      status: edd.status,
      created_at: edd.created_at,
    };
  },
};

/** A kind of the registry as the dashboard lists it: searchable by client_reference_id and paged on its index where its table allows. */
function registered(type: RecordType): RecordKind {
  const kind = REGISTRY[type];
  const table = kind.table as { columns: object; counted?: boolean };
  return {
    label: kind.label,
    table: (s) => s.recordTable(type) as unknown as Table<AnyRow>,
    view: DETAIL_VIEWS[type] ?? as(RECORD_VIEWS[type] as (row: never) => unknown),
    status: kind.status as (row: AnyRow) => string,
    type,
    clientRef: Object.hasOwn(table.columns, "client_ref"),
    indexed: table.counted === true,
  };
}

const REGISTERED = Object.fromEntries(
  RECORD_TYPES.map((type) => [REGISTRY[type].collection, registered(type)]),
) as Record<RecordCollection, RecordKind>;

export const RECORD_KINDS = {
  ...REGISTERED,
  wallets: {
    label: "Wallets",
    table: (s) => s.wallets as unknown as Table<AnyRow>,
    view: as(walletView),
    status: member("status"),
  },
  payout_quotations: {
    label: "Payout quotations",
    table: (s) => s.payoutQuotations as unknown as Table<AnyRow>,
    view: as(payoutQuotationView),
    status: quotationStatus,
  },
  payin_quotations: {
    label: "Payin quotations",
    table: (s) => s.payinQuotations as unknown as Table<AnyRow>,
    view: as(payinQuotationView),
    status: quotationStatus,
  },
} satisfies Record<string, RecordKind>;

export type RecordKindName = keyof typeof RECORD_KINDS;

export function isRecordKind(name: string): name is RecordKindName {
  return Object.hasOwn(RECORD_KINDS, name);
}
