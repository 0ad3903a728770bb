// Seeds a sandbox's PostgreSQL database to `rows` customers and `rows` payouts in seconds. Through the store each
// row is a round trip to the server (200k of them take minutes), so the first customer and payout are put through
// the store (seed.mjs, BENCH_ROWS=1: the rows exactly as the sandbox writes them) and the server copies them here,
// INSERT ... SELECT over generate_series: the same rows seed.mjs makes (references seed-<i>, one second apart,
// payouts spread over the first 100 customers), every other column copied from the first row.
import pg from "pg";

const START = "2026-01-01 00:00:00";
// An ISO time as toISOString writes it, `g.i` seconds after START.
const AT = `to_char(timestamp '${START}' + g.i * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const CUSTOMER = {
  table: "customer",
  first: "client_ref = 'seed-0'",
  generated: {
    client_ref: "'seed-' || g.i",
    email: "'seed' || g.i || '@example.com'",
    phone: "'+9198' || lpad(g.i::text, 8, '0')",
  },
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
  generated: {
    client_ref: "'seed-payout-' || g.i",
    customer_id: "(SELECT ids[g.i % cardinality(ids) + 1] FROM firsts)",
  },
  members: {
    client_reference_id: "n.client_ref",
    customer_id: "n.customer_id",
    quotation_id: "gen_random_uuid()::text",
    bank_id: "gen_random_uuid()::text",
  },
  with: "firsts AS MATERIALIZED (SELECT array_agg(id ORDER BY seq) AS ids FROM (SELECT id, seq FROM customer ORDER BY seq LIMIT 100) c)",
};

/** The columns of a table other than its identity (`seq`), in order. */
async function columnsOf(client, table) {
  const { rows } = await client.query(
    "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name <> 'seq' ORDER BY ordinal_position",
    [table],
  );
  return rows.map((r) => r.column_name);
}

/** The INSERT ... SELECT that copies a table's first seeded row `rows - 1` times. */
function copySql(spec, columns, rows) {
  // n: the columns each copy makes anew (g.i is the copy's number); f: the first row, which gives the rest. f is
  // MATERIALIZED: inlined, it is a scan of the table being filled, run again for every copy (quadratic).
  const fresh = { id: "gen_random_uuid()::text", created_at: AT, ...spec.generated };
  const made = Object.entries(fresh).map(([column, sql]) => `${sql} AS ${column}`);
  const n = `SELECT g.i, ${made.join(", ")} FROM generate_series(1, ${rows - 1}) AS g(i)`;
  const members = { id: "n.id", created_at: "n.created_at", updated_at: "n.created_at", ...spec.members };
  const pairs = Object.entries(members).map(([member, sql]) => `'${member}', ${sql}`);
  const json = `(f.json::jsonb || jsonb_build_object(${pairs.join(", ")}))::text`;
  const values = columns.map((column) => (column === "json" ? json : column in fresh ? `n.${column}` : `f.${column}`));
  const ctes = [
    ...(spec.with ? [spec.with] : []),
    `n AS (${n})`,
    `f AS MATERIALIZED (SELECT * FROM ${spec.table} WHERE ${spec.first})`,
  ];
  return `WITH ${ctes.join(", ")} INSERT INTO ${spec.table} (${columns.join(", ")}) SELECT ${values.join(", ")} FROM f, n`;
}

/** The table's indexes other than its keys: built again after the copy (a sort each, not 100k insertions). */
async function secondaryIndexes(client, table) {
  const { rows } = await client.query(
    "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1 AND indexdef NOT LIKE 'CREATE UNIQUE %'",
    [table],
  );
  return rows;
}

async function copyRows(client, spec, rows) {
  const indexes = await secondaryIndexes(client, spec.table);
  for (const index of indexes) await client.query(`DROP INDEX ${index.indexname}`);
  const { rowCount } = await client.query(copySql(spec, await columnsOf(client, spec.table), rows));
  if (rowCount !== rows - 1) throw new Error(`seeding ${spec.table}: ${rowCount} rows copied, not ${rows - 1}`);
  await client.query("UPDATE row_count SET n = n + $1 WHERE kind = $2", [rowCount, spec.table]);
  for (const index of indexes) await client.query(index.indexdef);
}

/**
 * Grows the seeded rows of a sandbox's database to `rows` each (the first of each must be there) and
 * refreshes the planner's statistics, as autovacuum would soon after such a load.
 *
 * @example
 * await growSeed("postgres://postgres:pw@127.0.0.1:5432/bench", 100_000);
 */
export async function growSeed(url, rows) {
  if (rows <= 1) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("BEGIN");
    // The count triggers are skipped (a superuser's replica role) and each count moved once: a trigger updating one
    // row_count row 100k times in one transaction leaves 100k versions of it, each update slower than the last.
    await client.query("SET LOCAL session_replication_role = replica");
    await client.query("SET LOCAL maintenance_work_mem = '256MB'");
    for (const spec of [CUSTOMER, PAYOUT]) await copyRows(client, spec, rows);
    await client.query("COMMIT");
    await client.query("ANALYZE customer, payout, row_count");
  } finally {
    await client.end();
  }
}
