// The record-kind registry: for each webhook event type of the spec (@exchange-kit/types), the kind of record
// that announces its events, named once. Everything that lists record kinds is derived from it: the store's
// tables and members (store/schema.ts, store/store.ts), the automatic-progress kinds (domain/progress.ts), the
// state machines the domain runs (domain/sandbox-domain.ts), the control API's transition routes and their
// paths (routes.ts, control/control-api.ts), the dashboard's kinds (dashboard/) and the CLI's `trigger` word
// (transitionPath, exported). The tables that hold per-kind behaviour elsewhere are mapped types over
// RecordType, so an event type added to the spec without its entry here, or without its row in one of them,
// fails to type-check (test/record-kinds.test-d.ts shows it).
//
// An entry is data and pure functions: its table is a spec of columns and indexes, not a statement, so a
// storage engine other than SQLite can read the same registry.
import type { WebhookEventType } from "@exchange-kit/types";
import { bankView, customerView, payinView, payoutView } from "./api/views.js";
import {
  BANK_STATUSES,
  CUSTOMER_STATUSES,
  EDD_STATUSES,
  moveBank,
  moveCustomer,
  moveEdd,
  movePayin,
  movePayout,
  PAYIN_STATUSES,
  PAYOUT_STATUSES,
} from "./domain/transitions.js";
import type { SandboxDomain } from "./domain/sandbox-domain.js";
import type { EddRow, PlannedStep } from "./store/records.js";
import {
  BANK_TABLE,
  CUSTOMER_TABLE,
  EDD_TABLE,
  type NamedTableSpec,
  PAYIN_TABLE,
  PAYOUT_TABLE,
} from "./store/record-tables.js";

/** What the sandbox knows of one kind of record; `Row` is the stored row, `Table` and `Collection` its names. */
export interface RecordKind<Row = never, Table extends string = string, Collection extends string = string> {
  /**
   * Its table: the name (also the automatic-progress kind and what the store's change notices say) and the
   * lookup columns and indexes. The name is persisted in --db files: it never changes.
   */
  table: NamedTableSpec<Row, Table>;
  /** Its collection: the control API's path segment (/_sandbox/{collection}/{id}/transition), the store's member, the dashboard's kind. */
  collection: Collection;
  /** The dashboard's name for its list. */
  label: string;
  /** The ID the control API's "no such record" error names. */
  idParam: string;
  /** The statuses the control API may move it to. */
  statuses: readonly string[];
  /** The row's current status. */
  status(row: Row): string;
  /** The state machine: sets the status and its fields, stores the row and emits the event (transitions.ts). */
  move(domain: SandboxDomain, row: Row, step: PlannedStep): Promise<void> | void;
  /** The record as the control API answers it. */
  view(row: Row): unknown;
}

/**
 * A registry over the event types `Type`: one entry for each, no other. Its default is the spec's types, so the
 * spec growing a type makes RECORD_KINDS fail this check until the type has its entry.
 */
export type RecordKindRegistry<Type extends string = WebhookEventType> = {
  readonly [T in Type]: RecordKind<never>;
};

/** One entry, checked whole: its table, state machine and view must all take the same row. */
const recordKind = <Row, const Table extends string, const Collection extends string>(
  kind: RecordKind<Row, Table, Collection>,
) => kind;

/** EDD records have no view in the spec; the control API answers these members. */
const eddControlView = (edd: EddRow) => ({ id: edd.id, customer_id: edd.customer_id, status: edd.status });

/**
 * The registry, by webhook event type.
 *
 * @example
 * RECORD_KINDS.BANK.collection; // "banks": POST /_sandbox/banks/{id}/transition, store.banks
 */
export const RECORD_KINDS = {
  CUSTOMER: recordKind({
    table: CUSTOMER_TABLE,
    collection: "customers",
    label: "Customers",
    idParam: "customer_id",
    statuses: CUSTOMER_STATUSES,
    status: (row) => row.status,
    move: moveCustomer,
    view: customerView,
  }),
  BANK: recordKind({
    table: BANK_TABLE,
    collection: "banks",
    label: "Bank accounts",
    idParam: "bank_id",
    statuses: BANK_STATUSES,
    status: (row) => row.bank_account_status,
    move: moveBank,
    view: bankView,
  }),
  PAYIN: recordKind({
    table: PAYIN_TABLE,
    collection: "payins",
    label: "Payins",
    idParam: "payin_id",
    statuses: PAYIN_STATUSES,
    status: (row) => row.status,
    move: movePayin,
    view: payinView,
  }),
  PAYOUT: recordKind({
    table: PAYOUT_TABLE,
    collection: "payouts",
    label: "Payouts",
    idParam: "payout_id",
    statuses: PAYOUT_STATUSES,
    status: (row) => row.status,
    move: movePayout,
    view: payoutView,
  }),
  EDD: recordKind({
    table: EDD_TABLE,
    collection: "edd",
    label: "EDD",
    idParam: "edd_id",
    statuses: EDD_STATUSES,
    status: (row) => row.status,
    move: moveEdd,
    view: eddControlView,
  }),
} satisfies RecordKindRegistry;

/** A webhook event type, as the key of its record kind. */
export type RecordType = keyof typeof RECORD_KINDS;

type Registered = typeof RECORD_KINDS;

/** The stored row of a kind. */
export type RowOf<T extends RecordType> = Parameters<Registered[T]["move"]>[1];

/** A kind's table name: what automatic progress and the store's change notices call it. */
export type TableNameOf<T extends RecordType> = Registered[T]["table"]["kind"];

/** Every kind's table name. */
export type RecordTableName = TableNameOf<RecordType>;

/** A kind's collection: the control API's path segment and the store's member. */
export type CollectionOf<T extends RecordType> = Registered[T]["collection"];

/** Every kind's collection. */
export type RecordCollection = CollectionOf<RecordType>;

/** The registry's event types, in the spec's order (the registry is written in it). */
export const RECORD_TYPES = Object.keys(RECORD_KINDS) as RecordType[];

/**
 * The control API path that moves a record of event type `type` (the `id` is encoded here).
 *
 * @example
 * transitionPath("BANK", "5b1c…"); // "/_sandbox/banks/5b1c…/transition"
 */
export function transitionPath(type: WebhookEventType, id: string): `/_sandbox/${string}/transition` {
  return `/_sandbox/${RECORD_KINDS[type].collection}/${encodeURIComponent(id)}/transition`;
}
