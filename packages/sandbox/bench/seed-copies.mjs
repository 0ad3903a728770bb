// Seeds a sandbox's database to `rows` customers and `rows` payouts in seconds. Through the store, 200k rows take
// about a minute on SQLite and many on PostgreSQL (a round trip per row), so the first customer and payout are
// put through the store (seed.mjs with BENCH_ROWS=1: the rows exactly as the sandbox writes them) and the database
// copies them here in one INSERT ... SELECT per table: the rows seed.mjs would make (references seed-<i>, one
// second apart, payouts spread over the first 100 customers), every other column copied from the first row. Only
// the SQL's dialect differs between the engines.
import { DatabaseSync } from "node:sqlite";
import pg from "pg";

const START = "2026-01-01 00:00:00";

const POSTGRES = {
  series: (rows) => `(SELECT i FROM generate_series(1, ${rows - 1}) AS s(i)) AS g`,
  uuid: "gen_random_uuid()::text",
  // An ISO time as toISOString writes it, `g.i` seconds after START.
  at: `to_char(timestamp '${START}' + g.i * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  digits8: "lpad(g.i::text, 8, '0')",
  merge: (pairs) => `(f.json::jsonb || jsonb_build_object(${pairs}))::text`,
};

const SQLITE = {
  // h, h2, h3: 16 random bytes each per copy (the UUIDs a copy makes), drawn in the row's own subquery.
  series: (rows) =>
    `(WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${rows - 1}) SELECT i, lower(hex(randomblob(16))) AS h, lower(hex(randomblob(16))) AS h2, lower(hex(randomblob(16))) AS h3 FROM s) AS g`,
  uuid: "substr(g.h, 1, 8) || '-' || substr(g.h, 9, 4) || '-4' || substr(g.h, 14, 3) || '-8' || substr(g.h, 18, 3) || '-' || substr(g.h, 21, 12)",
  at: `strftime('%Y-%m-%dT%H:%M:%fZ', '${START}', '+' || g.i || ' seconds')`,
  digits8: "substr('00000000' || g.i, -8, 8)",
  merge: (pairs) => `json_patch(f.json, json_object(${pairs}))`,
};

const CUSTOMER = {
  table: "customer",
  first: "client_ref = 'seed-0'",
  generated: (d) => ({
    client_ref: "'seed-' || g.i",
    email: "'seed' || g.i || '@example.com'",
    phone: `'+9198' || ${d.digits8}`,
  }),
  members: {
    client_reference_id: "n.client_ref",
    full_name: "'Seed Customer ' || n.i",
    email: "n.email",
    phone: "n.phone",
  },
};

const PAYOUT = {
  table: "payout",
  first: "client_ref = 'seed-payout-0'",
  generated: () => ({
    client_ref: "'seed-payout-' || g.i",
    customer_id: "(SELECT id FROM firsts WHERE k = g.i % (SELECT count(*) FROM firsts))",
  }),
  members: {
    client_reference_id: "n.client_ref",
    customer_id: "n.customer_id",
    quotation_id: "n.quotation_id",
    bank_id: "n.bank_id",
  },
  fresh: (d) => ({ quotation_id: d.uuid.replaceAll("g.h", "g.h2"), bank_id: d.uuid.replaceAll("g.h", "g.h3") }),
  with: "firsts AS MATERIALIZED (SELECT id, row_number() OVER (ORDER BY seq) - 1 AS k FROM (SELECT id, seq FROM customer ORDER BY seq LIMIT 100) AS c)",
};

/** The INSERT ... SELECT that copies a table's first seeded row `rows - 1` times, in dialect `d`. */
function copySql(d, spec, columns, rows) {
  // n: the columns each copy makes anew (g.i is the copy's number); f: the first row, which gives the rest. f is
  // MATERIALIZED: inlined, it is a scan of the table being filled, run again for every copy (quadratic).
  const made = { id: d.uuid, created_at: d.at, ...spec.generated(d) };
  const extra = spec.fresh ? spec.fresh(d) : {};
  const n = `SELECT g.i, ${Object.entries({ ...made, ...extra })
    .map(([column, sql]) => `${sql} AS ${column}`)
    .join(", ")} FROM ${d.series(rows)}`;
  const members = { id: "n.id", created_at: "n.created_at", updated_at: "n.created_at", ...spec.members };
  const pairs = Object.entries(members).map(([member, sql]) => `'${member}', ${sql}`);
  const values = columns.map((c) => (c === "json" ? d.merge(pairs.join(", ")) : c in made ? `n.${c}` : `f.${c}`));
  const ctes = [
    ...(spec.with ? [spec.with] : []),
    `n AS MATERIALIZED (${n})`,
    `f AS MATERIALIZED (SELECT * FROM ${spec.table} WHERE ${spec.first})`,
  ];
  return `WITH ${ctes.join(", ")} INSERT INTO ${spec.table} (${columns.join(", ")}) SELECT ${values.join(", ")} FROM f, n`;
}

function checkCopied(spec, copied, rows) {
  if (Number(copied) !== rows - 1) throw new Error(`seeding ${spec.table}: ${copied} rows copied, not ${rows - 1}`);
}

/** The table's indexes other than its keys: built again after the copy (a sort each, not 100k insertions). */
async function secondaryIndexes(client, table) {
  const { rows } = await client.query(
    "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1 AND indexdef NOT LIKE 'CREATE UNIQUE %'",
    [table],
  );
  return rows;
}

async function copyPostgres(client, spec, rows) {
  const { rows: found } = await client.query(
    "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name <> 'seq' ORDER BY ordinal_position",
    [spec.table],
  );
  const indexes = await secondaryIndexes(client, spec.table);
  for (const index of indexes) await client.query(`DROP INDEX ${index.indexname}`);
  const sql = copySql(
    POSTGRES,
    spec,
    found.map((r) => r.column_name),
    rows,
  );
  const { rowCount } = await client.query(sql);
  checkCopied(spec, rowCount, rows);
  await client.query("UPDATE row_count SET n = n + $1 WHERE kind = $2", [rowCount, spec.table]);
  for (const index of indexes) await client.query(index.indexdef);
}

/**
 * Grows the seeded rows of a sandbox's PostgreSQL database to `rows` each (the first of each must be there) and
 * refreshes the planner's statistics, as autovacuum would soon after such a load.
 *
 * @example
 * await growPostgresSeed("postgres://postgres:pw@127.0.0.1:5432/bench", 100_000);
 */
export async function growPostgresSeed(url, rows) {
  if (rows <= 1) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("BEGIN");
    // The count triggers are skipped (a superuser's replica role) and each count moved once: a trigger updating one
    // row_count row 100k times in one transaction leaves 100k versions of it, each update slower than the last.
    await client.query("SET LOCAL session_replication_role = replica");
    await client.query("SET LOCAL maintenance_work_mem = '256MB'");
    for (const spec of [CUSTOMER, PAYOUT]) await copyPostgres(client, spec, rows);
    await client.query("COMMIT");
    await client.query("ANALYZE customer, payout, row_count");
  } finally {
    await client.end();
  }
}

/**
 * The same for a SQLite file no sandbox holds (a running sandbox locks its file): one transaction; the count
 * triggers keep row_count.
 *
 * @example
 * growSqliteSeed("/tmp/bench.db", 100_000);
 */
export function growSqliteSeed(file, rows) {
  if (rows <= 1) return;
  const db = new DatabaseSync(file);
  try {
    // A cache that holds the tables and indexes being filled (2 MB by default: each random-UUID insertion would
    // read and write pages from disk); the file is thrown away after the bench, so nothing is synced.
    db.exec("PRAGMA cache_size = -524288; PRAGMA synchronous = OFF; BEGIN");
    for (const spec of [CUSTOMER, PAYOUT]) {
      const columns = db
        .prepare(`SELECT name FROM pragma_table_info('${spec.table}') WHERE name <> 'seq' ORDER BY cid`)
        .all()
        .map((r) => r.name);
      // As on PostgreSQL, the secondary indexes are built again after the copy (a sort each, not 100k insertions).
      const indexes = db
        .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
        .all(spec.table);
      for (const index of indexes) db.exec(`DROP INDEX ${index.name}`);
      checkCopied(spec, db.prepare(copySql(SQLITE, spec, columns, rows)).run().changes, rows);
      for (const index of indexes) db.exec(index.sql);
    }
    db.exec("COMMIT");
  } finally {
    db.close();
  }
}
