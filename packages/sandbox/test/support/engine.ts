// Which engine the behaviour tests run on: SQLite in memory (the default), or PostgreSQL when
// SANDBOX_TEST_POSTGRES holds a server's URL. Each sandbox then gets a database of its own, as fresh as memory,
// cloned from a template that already holds the schema (SANDBOX_TEST_POSTGRES_TEMPLATE, made once per run by
// postgres-global-setup.ts): a clone is a file copy, cheaper than creating ~80 tables and indexes per test.
// A clone still takes a few hundred milliseconds on a busy 2-core machine, the largest share of a short test's
// time, so each test worker clones the next test's database while the current test runs. A clone is about
// 12 MB in 500 files: dropped once its test is done, or a run of a thousand tests leaves 12 GB to remove.
import pg from "pg";
import { databaseUrl } from "./postgres-server.js";

let sequence = 0;
/** The next test's database, being cloned. */
let upcoming: Promise<string> | undefined;
/** The worker's connections for CREATE and DROP DATABASE; idle ones do not keep the worker alive. */
let admin: pg.Pool | undefined;

function adminPool(base: string): pg.Pool {
  if (!admin) {
    admin = new pg.Pool({ connectionString: base, max: 2, allowExitOnIdle: true });
    // The server stops at the end of the run: an idle connection's end is not a test's failure.
    admin.on("error", () => {});
  }
  return admin;
}

async function cloneTemplate(base: string): Promise<string> {
  const name = `t${process.pid}_${Date.now().toString(36)}_${(sequence++).toString(36)}`;
  const template = process.env.SANDBOX_TEST_POSTGRES_TEMPLATE;
  await adminPool(base).query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  return databaseUrl(base, name);
}

/** A fresh database for one sandbox on the engine under test; undefined for SQLite in memory. */
export async function engineDatabase(): Promise<string | undefined> {
  const base = process.env.SANDBOX_TEST_POSTGRES;
  if (!base) return undefined;
  const taken = upcoming ?? cloneTemplate(base);
  upcoming = cloneTemplate(base);
  // A failed clone is thrown to the test that takes it, not reported on its own while it waits.
  upcoming.catch(() => {});
  return taken;
}

/** Drops a database engineDatabase() gave, once its sandbox is closed (any connection left is ended). */
export async function dropEngineDatabase(url: string): Promise<void> {
  const base = process.env.SANDBOX_TEST_POSTGRES;
  if (!base) return;
  const name = new URL(url).pathname.slice(1);
  await adminPool(base).query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
