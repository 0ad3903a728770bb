// Type-level tests of the record-kind registry, checked by tsc in the package's lint (`pnpm lint`, tsconfig.json
// includes test/): a gap in the registry is a compile error, not a failing test. Each @ts-expect-error below is
// itself an error the day its line type-checks, so these cannot pass by accident.
import type { WebhookEventType } from "@exchange-kit/types";
import { describe, expectTypeOf, it } from "vitest";
import { RECORD_VIEWS } from "../src/api/views.js";
import type { ProgressKind } from "../src/domain/progress.js";
import { MOVES } from "../src/domain/transitions.js";
import {
  RECORD_KINDS,
  type RecordCollection,
  type RecordKindRegistry,
  type RecordType,
  type RowOf,
} from "../src/record-kinds.js";
import type { BankRow, CustomerRow, EddRow } from "../src/records/rows.js";
import type { RecordTables, Table } from "../src/store/store.js";

/** The spec's event types with one more, as a regenerated catalog would have them. */
type Grown = WebhookEventType | "REFUND";

/** A table with a row for each of `Types`, whatever the row holds. */
type RowFor<Types extends string> = { readonly [T in Types]: unknown };

describe("the record-kind registry", () => {
  it("has an entry for each event type of the spec and no other", () => {
    expectTypeOf<RecordType>().toEqualTypeOf<WebhookEventType>();
    RECORD_KINDS satisfies RecordKindRegistry;
  });

  it("fails to compile once the spec has an event type without its entry", () => {
    // @ts-expect-error REFUND has no entry
    RECORD_KINDS satisfies RecordKindRegistry<Grown>;
  });

  it("fails to compile with an entry left out", () => {
    const { EDD: _, ...withoutEdd } = RECORD_KINDS;
    // @ts-expect-error EDD is missing
    withoutEdd satisfies RecordKindRegistry;
  });

  it("fails to compile with an entry for a type the spec does not have", () => {
    // @ts-expect-error REFUND is not an event type of the spec
    ({ ...RECORD_KINDS, REFUND: RECORD_KINDS.EDD }) satisfies RecordKindRegistry;
  });

  it("derives the progress kinds (the table names) and the collections from its entries", () => {
    expectTypeOf<ProgressKind>().toEqualTypeOf<"customer" | "bank" | "payin" | "payout" | "edd">();
    expectTypeOf<RecordCollection>().toEqualTypeOf<"customers" | "banks" | "payins" | "payouts" | "edd">();
  });

  it("gives the store one member per collection, each a table of its kind's rows", () => {
    expectTypeOf<keyof RecordTables>().toEqualTypeOf<RecordCollection>();
    expectTypeOf<RecordTables["banks"]>().toEqualTypeOf<Table<BankRow>>();
    expectTypeOf<RowOf<"CUSTOMER">>().toEqualTypeOf<CustomerRow>();
  });
});

describe("the behaviour of each kind, in the layer that owns it", () => {
  it("has a state machine (domain/) and a view (api/) for each event type of the registry, and no other", () => {
    expectTypeOf<keyof typeof MOVES>().toEqualTypeOf<RecordType>();
    expectTypeOf<keyof typeof RECORD_VIEWS>().toEqualTypeOf<RecordType>();
  });

  it("fails to compile once the registry has an event type without its move or its view", () => {
    // @ts-expect-error REFUND has no move
    MOVES satisfies RowFor<Grown>;
    // @ts-expect-error REFUND has no view
    RECORD_VIEWS satisfies RowFor<Grown>;
  });

  it("fails to compile with a move or a view left out", () => {
    const { EDD: _move, ...movesWithoutEdd } = MOVES;
    // @ts-expect-error EDD has no move
    movesWithoutEdd satisfies typeof MOVES;
    const { EDD: _view, ...viewsWithoutEdd } = RECORD_VIEWS;
    // @ts-expect-error EDD has no view
    viewsWithoutEdd satisfies typeof RECORD_VIEWS;
  });

  it("fails to compile with a move or a view of another kind's row", () => {
    // @ts-expect-error a bank's move must take a BankRow, not a PayinRow
    ({ ...MOVES, BANK: MOVES.PAYIN }) satisfies typeof MOVES;
    // @ts-expect-error an EDD record's view must take an EddRow, not a CustomerRow
    ({ ...RECORD_VIEWS, EDD: RECORD_VIEWS.CUSTOMER }) satisfies typeof RECORD_VIEWS;
    expectTypeOf(RECORD_VIEWS.EDD).parameter(0).toEqualTypeOf<EddRow>();
  });
});
