// The kinds of record the dashboard lists, each with its table, the view the API answers for it (so the
// dashboard shows what a client sees), its status, and the control API kind that moves it. A kind whose table
// counts rows per organization pages on its (org, created_at) index, newest first, so 100k rows cost one page.
import {
  bankView,
  customerView,
  payinQuotationView,
  payinView,
  payoutQuotationView,
  payoutView,
  walletView,
} from "../api/views.js";
import type { SandboxDomain } from "../domain/sandbox-domain.js";
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
  status(row: AnyRow, domain: SandboxDomain): string;
  /** The kind of POST /_sandbox/{kind}/{id}/transition that moves it, when one does. */
  transition?: "customers" | "banks" | "payins" | "payouts" | "edd";
  /** Whether the table has a client_ref column to search. */
  clientRef?: boolean;
  /** Whether it pages on the (org, created_at DESC, seq) index. */
  indexed?: boolean;
}

// Each kind's view takes its own row type; the table hands back those rows.
const as = <R>(view: (row: R) => unknown) => view as unknown as (row: AnyRow) => unknown;
const member = (name: string) => (row: AnyRow) => String((row as unknown as Record<string, unknown>)[name] ?? "");

/** A quotation is EXPIRED once its expiry_time has passed on its organization's clock, USED once an order took it. */
function quotationStatus(row: AnyRow, domain: SandboxDomain): string {
  const q = row as AnyRow & { expiry_time: string; order_id?: string };
  if (q.order_id) return "USED";
  return Date.parse(q.expiry_time) <= domain.clock(row.org).now().getTime() ? "EXPIRED" : "ACTIVE";
}

export const RECORD_KINDS = {
  customers: {
    label: "Customers",
    table: (s) => s.customers as unknown as Table<AnyRow>,
    view: as(customerView),
    status: member("status"),
    transition: "customers",
    clientRef: true,
    indexed: true,
  },
  banks: {
    label: "Bank accounts",
    table: (s) => s.banks as unknown as Table<AnyRow>,
    view: as(bankView),
    status: member("bank_account_status"),
    transition: "banks",
  },
  wallets: {
    label: "Wallets",
    table: (s) => s.wallets as unknown as Table<AnyRow>,
    view: as(walletView),
    status: member("status"),
  },
  payins: {
    label: "Payins",
    table: (s) => s.payins as unknown as Table<AnyRow>,
    view: as(payinView),
    status: member("status"),
    transition: "payins",
    clientRef: true,
    indexed: true,
  },
  payouts: {
    label: "Payouts",
    table: (s) => s.payouts as unknown as Table<AnyRow>,
    view: as(payoutView),
    status: member("status"),
    transition: "payouts",
    clientRef: true,
    indexed: true,
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
  edd: {
    label: "EDD",
    table: (s) => s.edd as unknown as Table<AnyRow>,
    view: (row) => {
      const edd = row as AnyRow & { customer_id: string; module: string; status: string };
      return {
        id: edd.id,
        customer_id: edd.customer_id,
        module: edd.module,
        status: edd.status,
        created_at: edd.created_at,
      };
    },
    status: member("status"),
    transition: "edd",
  },
} satisfies Record<string, RecordKind>;

export type RecordKindName = keyof typeof RECORD_KINDS;

export function isRecordKind(name: string): name is RecordKindName {
  return Object.hasOwn(RECORD_KINDS, name);
}
