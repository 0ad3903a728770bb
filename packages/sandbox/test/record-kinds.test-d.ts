// Type-level tests of the record-kind registry, checked by tsc in the package's lint (`pnpm lint`, tsconfig.json
// includes test/): a gap in the registry is a compile error, not a failing test. Each @ts-expect-error below is
// itself an error the day its line type-checks, so these cannot pass by accident.
import type { WebhookEventType } from "@exchange-kit/types";
import { describe, expectTypeOf, it } from "vitest";
import type { ProgressKind } from "../src/domain/progress.js";
import {
  RECORD_KINDS,
  type RecordCollection,
  type RecordKindRegistry,
  type RecordType,
  type RowOf,
} from "../src/record-kinds.js";
import type { BankRow, CustomerRow } from "../src/records/rows.js";
import type { RecordTables, Table } from "../src/store/store.js";

/** The spec's event types with one more, as a regenerated catalog would have them. */
type Grown = WebhookEventType | "REFUND";

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
