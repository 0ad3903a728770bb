// Which engine the behaviour tests run on: SQLite in memory (the default), or PostgreSQL when
// SANDBOX_TEST_POSTGRES holds a server's URL. Each sandbox then gets a database of its own, as fresh as memory,
// cloned from a template that already holds the schema (SANDBOX_TEST_POSTGRES_TEMPLATE, made once per run by
// postgres-global-setup.ts): a clone is a file copy, cheaper than creating ~80 tables and indexes per test.
import pg from "pg";

let sequence = 0;

/** A fresh database for one sandbox on the engine under test; undefined for SQLite in memory. */
export async function engineDatabase(): Promise<string | undefined> {
  const base = process.env.SANDBOX_TEST_POSTGRES;
  if (!base) return undefined;
  const name = `t${process.pid}_${Date.now().toString(36)}_${(sequence++).toString(36)}`;
  const template = process.env.SANDBOX_TEST_POSTGRES_TEMPLATE;
  const client = new pg.Client(base);
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  } finally {
    await client.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}
