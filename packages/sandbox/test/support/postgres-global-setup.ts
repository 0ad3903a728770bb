// `pnpm test:postgres`: one PostgreSQL server for the whole run; every behaviour test's sandbox gets a schema
// of its own on it (test/support/engine.ts reads SANDBOX_TEST_POSTGRES, which the test workers inherit).
import { type PostgresServer, startPostgres } from "./postgres-server.js";

let server: PostgresServer | undefined;

export async function setup(): Promise<void> {
  server = await startPostgres();
  process.env.SANDBOX_TEST_POSTGRES = server.url;
}

export function teardown(): void {
  server?.stop();
}
