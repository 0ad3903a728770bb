// The tables: one per kind of record (the kinds that announce webhook events are record-kinds.ts's, their
// columns in records/record-tables.ts; the others are here). A row is kept whole as JSON (`json`); the members the handlers look
// rows up by are copied into columns with indexes, so no lookup or page reads a whole table. `seq` (the rowid)
// is the insertion order, which breaks ties exactly as the in-memory Maps of earlier sandboxes did. Pages are
// read newest first (ORDER BY created_at DESC, seq): the (created_at DESC, seq) indexes serve that mixed
// order directly, deep offsets included; an index on (created_at, seq) could only serve it with a sort.
import { RECORD_KINDS } from "../record-kinds.js";
import type { EventRow, OrganizationRow, WalletRow } from "../records/rows.js";
import type { TableSpec } from "../records/table-spec.js";

/**
 * The schema version in PRAGMA user_version (on PostgreSQL, sandbox_meta's schema_version). 0 with
 * `records`/`meta` tables: the old sql.js format. 2 added the `organization` table; every change so far only
 * adds tables, so an older database is upgraded by creating what is missing (OLDEST_UPGRADABLE_VERSION).
 */
export const SCHEMA_VERSION = 2;

/** The oldest schema version a start upgrades (by creating the tables it lacks); older ones are refused. */
export const OLDEST_UPGRADABLE_VERSION = 1;

const wallet: TableSpec<WalletRow> = {
  kind: "wallet",
  columns: { customer_id: (r) => r.customer_id },
  indexes: ["customer_id"],
};

const event: TableSpec<EventRow> = {
  kind: "event",
  columns: {},
  indexes: ["org, created_at, seq", "created_at, seq"],
};

// Organizations: the ID is a digest of the API key (organizations/organization-id.ts), so the unique id is the
// unique key too; `org` is the organization's own ID (every table has the column).
const organization: TableSpec<OrganizationRow> = { kind: "organization", columns: {}, indexes: [] };

const plain = (kind: string): TableSpec<never> => ({ kind, columns: {}, indexes: [] });

/** The tables of the records that announce no webhook event (the others are the registry's). */
export const TABLES = {
  wallet,
  event,
  payoutQuotation: plain("payout_quotation"),
  payinQuotation: plain("payin_quotation"),
  remitter: plain("remitter"),
  senderKyc: plain("sender_kyc"),
  orgSettings: plain("org_settings"),
  organization,
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
  ...Object.values(RECORD_KINDS).map((kind) => tableSql(kind.table as TableSpec<never>)),
  ...Object.values(TABLES).map((spec) => tableSql(spec as TableSpec<never>)),
  "CREATE TABLE IF NOT EXISTS sandbox_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);",
].join("\n");
