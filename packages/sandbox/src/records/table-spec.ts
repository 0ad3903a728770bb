// What a table is, as data: its name, the lookup columns copied out of each row and the indexes over them. The
// store turns a spec into statements (store/schema.ts, store/store.ts); the registry (record-kinds.ts) and the
// features name their tables with one, so neither needs the store to say what it keeps.

export type Value = string | number | null;

export interface TableSpec<T> {
  kind: string;
  /** Lookup columns beside id, org, created_at, planned and json, and how each is read from a row. */
  columns: Record<string, (row: T) => Value>;
  /** Column lists of the indexes (beyond the unique id). */
  indexes: string[];
  /** Keep the number of rows per organization (row_count), so a list's unfiltered count is one lookup. */
  counted?: boolean;
}

/** A table's spec whose name is known to the type system, so the registry's table names are literal types. */
export type NamedTableSpec<T, Name extends string> = TableSpec<T> & { kind: Name };
