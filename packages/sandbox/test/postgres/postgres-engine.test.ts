// The sandbox on PostgreSQL (`db: "postgres://..."`), against a real server started for this file: records kept
// across a restart, one sandbox per database, a clear refusal for each way a start can fail, and 503 while the
// server is down, with nothing acknowledged lost. The behaviour suite runs on this engine as well
// (SANDBOX_TEST_POSTGRES, see test/support/engine.ts).
import { inspect } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, DatabaseError, type Sandbox } from "../../src/index.js";
import { exchangeLink, linkToken, openDashboard, openDashboardLink, sessionOn } from "../dashboard/session.js";
import { Api, createCustomer, kycBody, ORG_A, ORG_B, waitFor } from "../helpers.js";
import { createDatabase, PASSWORD, type PostgresServer, startPostgres } from "../support/postgres-server.js";

let server: PostgresServer;
let sequence = 0;

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);

afterAll(() => server?.stop());

/** A new, empty database on the test server, and its URL. */
const freshDatabase = (): Promise<string> => createDatabase(server.url, `engine_${sequence++}`);

async function sql(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

const open = (db: string): Promise<Sandbox> => createSandbox({ db, organizations: [ORG_A], autoProgressMs: false });

/** The `update` messages of a dashboard stream, as they arrive. */
function readUpdates(stream: Response): Array<{ requests: boolean; kinds: string[] }> {
  const updates: Array<{ requests: boolean; kinds: string[] }> = [];
  const decoder = new TextDecoder();
  let text = "";
  void (async () => {
    for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      for (let end = text.indexOf("\n\n"); end !== -1; end = text.indexOf("\n\n")) {
        const message = text.slice(0, end);
        text = text.slice(end + 2);
        const data = /^data: (.*)$/m.exec(message)?.[1];
        if (message.startsWith("event: update") && data) updates.push(JSON.parse(data));
      }
    }
  })().catch(() => {});
  return updates;
}

async function refusal(db: string): Promise<DatabaseError> {
  const error = await open(db).then(
    async (sandbox) => {
      await sandbox.close();
      throw new Error("the sandbox started");
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DatabaseError);
  return error as DatabaseError;
}

describe("a sandbox on PostgreSQL", () => {
  it("keeps its records across a restart", async () => {
    const db = await freshDatabase();
    const first = await open(db);
    const customer = await createCustomer(new Api(first, ORG_A));
    await first.close();
    const second = await open(db);
    try {
      const found = await new Api(second, ORG_A).ok("GET", `/cms/api/v1/customer/${customer.id}`);
      expect(found.id).toBe(customer.id);
    } finally {
      await second.close();
    }
  });

  it("lets a second sandbox start on a database another one is using, and both serve the same records", async () => {
    const db = await freshDatabase();
    const first = await open(db);
    const second = await open(db);
    try {
      const customer = await createCustomer(new Api(first, ORG_A));
      const found = await new Api(second, ORG_A).ok("GET", `/cms/api/v1/customer/${customer.id}`);
      expect(found.id).toBe(customer.id);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("accepts on one replica a dashboard session opened on another, for records, events and the request log", async () => {
    const db = await freshDatabase();
    const first = await open(db);
    const second = await open(db);
    try {
      const customer = await createCustomer(new Api(first, ORG_A));
      await new Api(first, ORG_A).ok("POST", `/_sandbox/customers/${customer.id}/transition`, { status: "VERIFIED" });
      const opened = await openDashboardLink(first.dashboard[0]!.url);
      // The request log is written in batches after the answers: waited for once, then read through both.
      const logged = async () => JSON.stringify((await opened.get("requests")).body).includes("createCustomer");
      await waitFor(logged, "the createCustomer request in the log");
      // Round robin over the two replicas, as a balancer without stickiness sends a page's calls.
      const replicas = [first, second, first, second];
      for (const [i, replica] of replicas.entries()) {
        const session = sessionOn(replica.url, opened.token);
        expect((await session.get(`records/customers/${customer.id}`)).body.record.id, `call ${i}`).toBe(customer.id);
        expect(JSON.stringify((await session.get("events")).body.results)).toContain(customer.id);
        expect(JSON.stringify((await session.get("requests")).body)).toContain("createCustomer");
      }
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("opens a dashboard link on another replica after the replica that printed it has stopped", async () => {
    const db = await freshDatabase();
    const printer = await open(db);
    const link = printer.dashboard[0]!.url;
    await printer.close();
    const survivor = await open(db);
    try {
      const session = await openDashboardLink(link, survivor.url);
      expect((await session.get("session")).body.organization.id).toBe(survivor.organizations[0]!.id);
    } finally {
      await survivor.close();
    }
  });

  it("streams to one replica's dashboard what was committed through another", async () => {
    const db = await freshDatabase();
    const first = await open(db);
    const second = await open(db);
    const reader = new AbortController();
    try {
      const session = await openDashboard(second);
      const stream = await fetch(`${second.url}/_dashboard/api/stream`, {
        headers: session.headers,
        signal: reader.signal,
      });
      const updates = readUpdates(stream);
      // The feed connects in the background: a write now may come before it listens, so write until one is heard.
      const heard = await waitFor(
        async () => {
          await createCustomer(new Api(first, ORG_A));
          return updates.find((u) => u.kinds.includes("customer"));
        },
        "the other replica's change on the stream",
        10_000,
      );
      expect(heard.kinds).toContain("customer");
    } finally {
      reader.abort();
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("refuses a wrong password in one line that never shows a password", async () => {
    const url = new URL(await freshDatabase());
    url.password = "not-the-password";
    const error = await refusal(url.toString());
    expect(error.problem).toBe("permission-denied");
    expect(error.message).toMatch(/refused the user name or password\.$/);
    expect(error.message).not.toContain("not-the-password");
    expect(error.message).not.toContain(PASSWORD);
    expect(error.message.split("\n")).toHaveLength(1);
  });

  it("refuses a wrong password given as ?password= without showing it, nor an sslpassword", async () => {
    const url = new URL(await freshDatabase());
    url.password = "";
    url.search = "?password=not-the-password&sslpassword=k3y-passphrase";
    const error = await refusal(url.toString());
    expect(error.problem).toBe("permission-denied");
    expect(error.message).toContain("password=***");
    expect(error.message).toContain("sslpassword=***");
    for (const secret of ["not-the-password", "k3y-passphrase", PASSWORD]) {
      expect(error.message).not.toContain(secret);
      expect(error.file).not.toContain(secret);
      expect(inspect(error, { depth: 10 })).not.toContain(secret);
    }
  });

  it("refuses a server nobody listens on", async () => {
    const url = new URL(server.url);
    url.port = "1";
    const error = await refusal(url.toString());
    expect(error.problem).toBe("cannot-open");
    expect(error.message).toContain("PostgreSQL cannot be reached");
  });

  it("refuses a database that does not exist", async () => {
    const url = new URL(server.url);
    url.pathname = "/no_such_database";
    const error = await refusal(url.toString());
    expect(error.message).toContain("the database does not exist");
  });

  it("leaves another application's database untouched", async () => {
    const db = await freshDatabase();
    await sql(db, "CREATE TABLE invoices (id int primary key)");
    const error = await refusal(db);
    expect(error.problem).toBe("other-application");
    const tables = await sql(db, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
    expect(tables.rows.map((r) => r.tablename)).toEqual(["invoices"]);
  });

  it("refuses a database a newer sandbox wrote", async () => {
    const db = await freshDatabase();
    await (await open(db)).close();
    await sql(db, "UPDATE sandbox_meta SET value = '99' WHERE key = 'schema_version'");
    const error = await refusal(db);
    expect(error.problem).toBe("newer-version");
    expect(error.message).toContain("newer sandbox (schema 99");
  });

  it("creates the schema once when several sandboxes start at once on a fresh database", async () => {
    const db = await freshDatabase();
    const starts = await Promise.allSettled([open(db), open(db), open(db)]);
    const started = starts
      .filter((s) => s.status === "fulfilled")
      .map((s) => (s as PromiseFulfilledResult<Sandbox>).value);
    const refused = starts.filter((s) => s.status === "rejected").map((s) => (s as PromiseRejectedResult).reason);
    // Replicas: every one starts, and none fails on a half-made schema.
    expect(refused).toEqual([]);
    expect(started).toHaveLength(3);
    await Promise.all(started.map((s) => s.close()));
  });
});

describe("organizations shared by replicas on one database", () => {
  const TOKEN = "admin-token-for-the-tests-0123456789";

  /** Two sandboxes on one fresh database, each with its own organizations in its options; closed by `work`'s end. */
  async function twoReplicas(work: (first: Sandbox, second: Sandbox) => Promise<void>): Promise<void> {
    const db = await freshDatabase();
    const first = await createSandbox({ db, organizations: [ORG_A], autoProgressMs: false, adminToken: TOKEN });
    const second = await createSandbox({ db, organizations: [ORG_B], autoProgressMs: false });
    try {
      await work(first, second);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  }

  async function addOrganization(sandbox: Sandbox): Promise<{ apiKey: string; apiSecret: string; id: string }> {
    const answer = await fetch(`${sandbox.url}/_sandbox/admin/organizations`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "QA team" }),
    });
    const data = (await answer.json()).data;
    return { apiKey: data.api_key, apiSecret: data.api_secret, id: data.id };
  }

  it("accepts on one replica an organization added through another, at its very next request", async () => {
    await twoReplicas(async (first, second) => {
      const added = await addOrganization(first);
      const customer = await createCustomer(new Api(second, added));
      const found = await new Api(first, added).ok("GET", `/cms/api/v1/customer/${customer.id}`);
      expect(found.id).toBe(customer.id);
      expect((await new Api(second, ORG_A).ok("GET", "/cms/api/v1/customer/list")).count).toBe(0);
    });
  });

  it("accepts on each replica the organizations the other one's options registered", async () => {
    await twoReplicas(async (first, second) => {
      expect((await new Api(first, ORG_B).request("GET", "/cms/api/v1/customer/list")).status).toBe(200);
      expect((await new Api(second, ORG_A).request("GET", "/cms/api/v1/customer/list")).status).toBe(200);
    });
  });

  it("moves an added organization's clock for every replica, and no other organization's", async () => {
    await twoReplicas(async (first, second) => {
      const added = await addOrganization(first);
      await new Api(first, added).ok("POST", "/_sandbox/clock/advance", { seconds: 3600 });
      expect((await new Api(second, added).ok("GET", "/_sandbox/clock")).offset_seconds).toBe(3600);
      expect((await new Api(second, ORG_A).ok("GET", "/_sandbox/clock")).offset_seconds).toBe(0);
      expect((await new Api(second, ORG_B).ok("GET", "/_sandbox/clock")).offset_seconds).toBe(0);
    });
  });
});

describe("while PostgreSQL is down", () => {
  it("answers 503 SYS_SERVICE_UNAVAILABLE at once, then serves again with nothing acknowledged lost", async () => {
    const db = await freshDatabase();
    const adminToken = "admin-token-for-the-tests-0123456789";
    const sandbox = await createSandbox({ db, organizations: [ORG_A], autoProgressMs: false, adminToken });
    const admin = () =>
      fetch(`${sandbox.url}/_sandbox/admin/organizations`, { headers: { Authorization: `Bearer ${adminToken}` } });
    try {
      const api = new Api(sandbox, ORG_A);
      const before = await createCustomer(api);
      server.kill();
      try {
        const refused = await api.request("GET", `/cms/api/v1/customer/${before.id}`);
        expect(refused.status).toBe(503);
        expect(refused.body.err_code).toBe("SYS_SERVICE_UNAVAILABLE");
        const write = await api.request("POST", "/cms/api/v1/customer/create", { body: { bogus: true } });
        expect(write.status).toBe(503);
        const listed = await admin();
        expect(listed.status).toBe(503);
        expect((await listed.json()).err_code).toBe("SYS_SERVICE_UNAVAILABLE");
      } finally {
        server.start();
      }
      const found = await api.ok("GET", `/cms/api/v1/customer/${before.id}`);
      expect(found.id).toBe(before.id);
      await createCustomer(api);
      expect((await admin()).status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });

  it("refuses dashboard calls and links with 503 while PostgreSQL is down, and takes the same session once it is back", async () => {
    const db = await freshDatabase();
    const sandbox = await open(db);
    try {
      const session = await openDashboard(sandbox);
      const link = linkToken(sandbox.dashboard[0]!.url);
      server.kill();
      try {
        // No session can be checked: closed, not open, and at once.
        const refused = await session.get("records?kind=customers");
        expect(refused.status).toBe(503);
        expect(refused.body.err_code).toBe("SYS_SERVICE_UNAVAILABLE");
        expect((await exchangeLink(sandbox.url, link)).status).toBe(503);
      } finally {
        server.start();
      }
      expect((await session.get("records?kind=customers")).status).toBe(200);
      expect((await exchangeLink(sandbox.url, link)).status).toBe(201);
    } finally {
      await sandbox.close();
    }
  });

  it("starts its job queue's workers once the server is back, when their first start found it down", async () => {
    const db = await freshDatabase();
    const warnings: string[] = [];
    const log = (line: string) => void warnings.push(line);
    const sandbox = await createSandbox(
      { db, organizations: [ORG_A], autoProgressMs: 300, logger: { info: () => {}, warn: log, error: log } },
      { queue: { pollMs: 200 } },
    );
    try {
      // Down before the workers' first start, one poll interval after the sandbox's.
      server.kill();
      try {
        await waitFor(() => warnings.some((w) => w.includes("the workers did not start")), "a failed start", 10_000);
      } finally {
        server.start();
      }
      const api = new Api(sandbox, ORG_A);
      const customer = await waitFor(() => createCustomer(api).catch(() => undefined), "a create after the restart");
      await api.ok("POST", "/cms/api/v1/kyc/add-kyc-data", kycBody(customer.id));
      // The KYC outcome is a job: only running workers move the customer on.
      const moved = await waitFor(
        async () => {
          const c = await api.ok("GET", `/cms/api/v1/customer/${customer.id}`);
          return c.status !== "UNVERIFIED" && c;
        },
        "the KYC step run by the restarted workers",
        15_000,
      );
      expect(moved.status).toBe("VERIFIED");
    } finally {
      await sandbox.close();
    }
  }, 40_000);
});
