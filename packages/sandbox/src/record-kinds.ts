// The record-kind registry: for each webhook event type of the spec (@exchange-kit/types), the kind of record
// that announces its events, named once. Everything that lists record kinds is derived from it: the store's
// tables and members (store/schema.ts, store/store.ts), the automatic-progress kinds (domain/progress.ts), the
// control API's transition routes and their paths (routes.ts, control/control-api.ts), the dashboard's kinds
// (dashboard/) and the CLI's `trigger` word (transitionPath, exported). The behaviour of each kind lives in the
// layer that owns it, as a mapped type over RecordType: the state machines in domain/transitions.ts (MOVES), the
// views in api/views.ts (RECORD_VIEWS), the transition bodies in control/control-api.ts (TRANSITION_STEPS). So an
// event type added to the spec without its entry here, or without its row in one of them, fails to type-check
// (test/record-kinds.test-d.ts shows it).
//
// An entry is data only (no behaviour beyond reading its own row), and this file sits below every layer: it
// imports only records/, the rows and their table specs. Its table is a spec of columns and indexes, not a
// statement, so either storage engine reads the same registry.
import type { WebhookEventType } from "@exchange-kit/types";
import { BANK_TABLE, CUSTOMER_TABLE, EDD_TABLE, PAYIN_TABLE, PAYOUT_TABLE } from "./records/record-tables.js";
import { BANK_STATUSES, CUSTOMER_STATUSES, EDD_STATUSES, PAYIN_STATUSES, PAYOUT_STATUSES } from "./records/statuses.js";
import type { NamedTableSpec } from "./records/table-spec.js";

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
}

/**
 * A registry over the event types `Type`: one entry for each, no other. Its default is the spec's types, so the
 * spec growing a type makes RECORD_KINDS fail this check until the type has its entry.
 */
export type RecordKindRegistry<Type extends string = WebhookEventType> = {
  readonly [T in Type]: RecordKind<never>;
};

/** One entry, checked whole: its table and its status must take the same row. */
const recordKind = <Row, const Table extends string, const Collection extends string>(
  kind: RecordKind<Row, Table, Collection>,
) => kind;

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
  }),
  BANK: recordKind({
    table: BANK_TABLE,
    collection: "banks",
    label: "Bank accounts",
    idParam: "bank_id",
    statuses: BANK_STATUSES,
    status: (row) => row.bank_account_status,
  }),
  PAYIN: recordKind({
    table: PAYIN_TABLE,
    collection: "payins",
    label: "Payins",
    idParam: "payin_id",
    statuses: PAYIN_STATUSES,
    status: (row) => row.status,
  }),
  PAYOUT: recordKind({
    table: PAYOUT_TABLE,
    collection: "payouts",
    label: "Payouts",
    idParam: "payout_id",
    statuses: PAYOUT_STATUSES,
    status: (row) => row.status,
  }),
  EDD: recordKind({
    table: EDD_TABLE,
    collection: "edd",
    label: "EDD",
    idParam: "edd_id",
    statuses: EDD_STATUSES,
    status: (row) => row.status,
  }),
} satisfies RecordKindRegistry;

/** A webhook event type, as the key of its record kind. */
export type RecordType = keyof typeof RECORD_KINDS;

type Registered = typeof RECORD_KINDS;

/** The stored row of a kind. */
export type RowOf<T extends RecordType> =
  Registered[T]["table"] extends NamedTableSpec<infer Row extends { id: string; org: string }, string> ? Row : never;

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
