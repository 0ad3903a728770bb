// Which engine the behaviour tests run on: SQLite in memory (the default), or PostgreSQL when
// SANDBOX_TEST_POSTGRES holds a server's URL; each sandbox then gets a schema of its own, as fresh as memory.
import pg from "pg";

let sequence = 0;

/** A fresh database for one sandbox on the engine under test; undefined for SQLite in memory. */
export async function engineDatabase(): Promise<string | undefined> {
  const base = process.env.SANDBOX_TEST_POSTGRES;
  if (!base) return undefined;
  const schema = `t${process.pid}_${Date.now().toString(36)}_${(sequence++).toString(36)}`;
  const client = new pg.Client(base);
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await client.end();
  }
  const url = new URL(base);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return url.toString();
}
