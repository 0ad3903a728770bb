// A replica says when its database drops and when it is back: one warning line at the first failure, one info line
// at the first answer after, the database named without its password; the requests in between are answered 503
// without a line each. A sandbox on a PostgreSQL server of its own, which the test kills and starts again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../src/index.js";
import { Api, ORG_A, waitFor } from "../helpers.js";
import { createDatabase, PASSWORD, type PostgresServer, startPostgres } from "../support/postgres-server.js";

let server: PostgresServer;
let sandbox: Sandbox;
const lines: Array<{ level: "info" | "warn" | "error"; text: string }> = [];

beforeAll(async () => {
  server = await startPostgres();
  sandbox = await createSandbox(
    {
      db: await createDatabase(server.url, "outage"),
      organizations: [ORG_A],
      autoProgressMs: 0,
      logger: {
        info: (text) => lines.push({ level: "info", text }),
        warn: (text) => lines.push({ level: "warn", text }),
        error: (text) => lines.push({ level: "error", text }),
      },
    },
    { queue: { concurrency: 1, pollMs: 20 }, changeFeed: false },
  );
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  server?.stop();
});

describe("a replica whose database drops and comes back", () => {
  it("logs one warning when it drops and one info line when it is back, never the password", async () => {
    const api = new Api(sandbox);
    expect((await api.get("/cms/api/v1/customer/list")).status).toBe(200);
    const before = lines.length;
    server.kill();
    try {
      for (let i = 0; i < 3; i++) {
        const res = await api.get("/cms/api/v1/customer/list");
        expect([res.status, res.body.err_code]).toEqual([503, "SYS_SERVICE_UNAVAILABLE"]);
      }
    } finally {
      server.start();
    }
    await waitFor(async () => (await api.get("/cms/api/v1/customer/list")).status === 200, "an answer again", 20_000);
    const said = lines.slice(before).filter((line) => /the database (does not answer|answers again)/.test(line.text));
    expect(said.map((line) => line.level)).toEqual(["warn", "info"]);
    expect(said[0]!.text).toMatch(
      /^postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/outage: the database does not answer/,
    );
    expect(lines.filter((line) => line.text.includes(PASSWORD))).toEqual([]);
    // No line per refused request.
    expect(lines.slice(before).filter((line) => line.level === "error")).toEqual([]);
  }, 90_000);
});
