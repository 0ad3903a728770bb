// GET /_sandbox/ready on PostgreSQL, against a real server started for this file: what a balancer probes. 200
// while the database answers, 503 while it is down (no data, no detail), 200 again once it is back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "../../src/index.js";
import { ORG_A, waitFor } from "../helpers.js";
import { createDatabase, type PostgresServer, startPostgres } from "../support/postgres-server.js";

let server: PostgresServer;

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);

afterAll(() => server?.stop());

describe("the readiness endpoint on PostgreSQL", () => {
  it("answers 200 while the database answers, 503 while it is down, and 200 once it is back", async () => {
    const db = await createDatabase(server.url, "readiness");
    const sandbox = await createSandbox({ db, organizations: [ORG_A], autoProgressMs: false });
    const probe = () => fetch(`${sandbox.url}/_sandbox/ready`);
    try {
      expect((await probe()).status).toBe(200);
      server.kill();
      try {
        const down = await probe();
        expect(down.status).toBe(503);
        const text = await down.text();
        expect(JSON.parse(text)).toEqual({
          status: false,
          message: "Service unavailable: the sandbox's database does not answer",
          data: null,
          err_code: "SYS_SERVICE_UNAVAILABLE",
        });
        // Nothing of the connection reaches an unsigned caller: not its URL, user or password.
        for (const secret of [db, "postgres", "127.0.0.1"]) expect(text).not.toContain(secret);
      } finally {
        server.start();
      }
      await waitFor(async () => (await probe()).status === 200, "readiness after the restart", 15_000);
    } finally {
      await sandbox.close();
    }
  }, 60_000);
});
