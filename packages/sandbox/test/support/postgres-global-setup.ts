// `pnpm test:postgres`: one PostgreSQL server for the whole run; every behaviour test's sandbox gets a database
// of its own on it (test/support/engine.ts reads SANDBOX_TEST_POSTGRES, which the test workers inherit), cloned
// from a template database that a sandbox has created its schema in once.
import pg from "pg";
import { createSandbox } from "../../src/index.js";
import { createDatabase, type PostgresServer, startPostgres } from "./postgres-server.js";

const TEMPLATE = "sandbox_template";
let server: PostgresServer | undefined;

async function createTemplate(url: string): Promise<void> {
  const template = new URL(await createDatabase(url, TEMPLATE));
  // The sandbox creates its schema; closing it ends its connection, so the template can be copied.
  await (await createSandbox({ db: template.toString() })).close();
  // Its organization (generated, as it was given none) goes: each test's database starts as empty as memory.
  const emptied = new pg.Client(template.toString());
  await emptied.connect();
  try {
    await emptied.query("DELETE FROM organization");
  } finally {
    await emptied.end();
  }
}

export async function setup(): Promise<void> {
  server = await startPostgres();
  await createTemplate(server.url);
  process.env.SANDBOX_TEST_POSTGRES = server.url;
  process.env.SANDBOX_TEST_POSTGRES_TEMPLATE = TEMPLATE;
}

export function teardown(): void {
  server?.stop();
}
