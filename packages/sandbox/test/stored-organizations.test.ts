// Organizations kept in the database: registered from the options at start (a stored key given with another
// secret takes the options' secret, with a warning that shows no secret), kept across restarts with the ones
// added while it ran, reused when the options name none, and a database of schema version 1 upgraded on open.
// On both engines: a file for SQLite, a database of the test server for PostgreSQL. The admin decisions are
// tested as tables.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox, type SandboxOptions } from "../src/index.js";
import { adminAccess } from "../src/organizations/admin-api.js";
import { OrganizationDirectory } from "../src/organizations/directory.js";
import { adminTokenProblem, hasAdminToken } from "../src/organizations/admin-token.js";
import { organizationId } from "../src/organizations/organization-id.js";
import { organizationNameProblem } from "../src/organizations/organization-name.js";
import { SCHEMA_VERSION } from "../src/store/schema.js";
import { Store } from "../src/store/store.js";
import { Api, createCustomer, ORG_A } from "./helpers.js";
import { engineDatabase } from "./support/engine.js";

const dir = mkdtempSync(join(tmpdir(), "sandbox-orgs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const TOKEN = "admin-token-for-the-tests-0123456789";
const LIST_CUSTOMERS = "/cms/api/v1/customer/list";

/** A database that outlives one sandbox: the engine's (PostgreSQL), or a new SQLite file. */
async function database(): Promise<string> {
  return (await engineDatabase()) ?? join(dir, `orgs-${files++}.db`);
}

/** Runs SQL on the database directly (as an older sandbox left it, or to read what is stored). */
async function sql(db: string, text: string): Promise<Array<Record<string, unknown>>> {
  if (!db.startsWith("postgres")) {
    const file = new DatabaseSync(db);
    try {
      return /^\s*(SELECT|PRAGMA user_version;?$)/i.test(text)
        ? (file.prepare(text).all() as Array<Record<string, unknown>>)
        : (file.exec(text), []);
    } finally {
      file.close();
    }
  }
  const client = new pg.Client(db);
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

async function run<T>(options: SandboxOptions, work: (sandbox: Sandbox) => Promise<T>): Promise<T> {
  const sandbox = await createSandbox({ autoProgressMs: false, ...options });
  try {
    return await work(sandbox);
  } finally {
    await sandbox.close();
  }
}

describe("organizations kept in the database", () => {
  it("takes the options' secret when a restart gives a stored key another one, and warns without either secret", async () => {
    const db = await database();
    await run({ db, organizations: [ORG_A] }, async () => {});
    const lines: string[] = [];
    const log = (line: unknown) => lines.push(String(line));
    const renewed = { ...ORG_A, apiSecret: "a-new-secret-for-org-a" };
    await run({ db, organizations: [renewed], logger: { info: log, warn: log, error: log } }, async (sandbox) => {
      expect((await new Api(sandbox, renewed).request("GET", LIST_CUSTOMERS)).status).toBe(200);
      expect((await new Api(sandbox, ORG_A).request("GET", LIST_CUSTOMERS)).status).toBe(401);
    });
    expect(lines.filter((line) => /API secret given at start replaces the one stored/.test(line))).toHaveLength(1);
    expect(lines.join("\n")).not.toContain(ORG_A.apiSecret);
    expect(lines.join("\n")).not.toContain(renewed.apiSecret);
  });

  it("keeps an organization added while it ran across a restart, with its records", async () => {
    const db = await database();
    const added = await run({ db, organizations: [ORG_A], adminToken: TOKEN }, async (sandbox) => {
      const answer = await fetch(`${sandbox.url}/_sandbox/admin/organizations`, {
        method: "POST",
        headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
        body: JSON.stringify({ name: "QA team" }),
      });
      const data = (await answer.json()).data;
      const credentials = { apiKey: data.api_key as string, apiSecret: data.api_secret as string };
      await createCustomer(new Api(sandbox, credentials));
      return credentials;
    });
    await run({ db, organizations: [ORG_A] }, async (sandbox) => {
      expect((await new Api(sandbox, added).ok("GET", LIST_CUSTOMERS)).count).toBe(1);
      expect((await new Api(sandbox, ORG_A).ok("GET", LIST_CUSTOMERS)).count).toBe(0);
    });
  });

  it("reuses the database's organizations when the options name none, instead of generating another", async () => {
    const db = await database();
    const first = await run({ db }, async (sandbox) => sandbox.organizations);
    expect(first).toHaveLength(1);
    const second = await run({ db }, async (sandbox) => sandbox.organizations);
    expect(second).toEqual(first);
  });

  it("keeps the secret out of the database's other tables and the request log's answers", async () => {
    const db = await database();
    await run({ db, organizations: [ORG_A] }, async (sandbox) => {
      await createCustomer(new Api(sandbox, ORG_A));
    });
    const stored = await sql(db, "SELECT json FROM request_log");
    expect(stored.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toContain(ORG_A.apiSecret);
  });
});

describe("a database of schema version 1", () => {
  it("is upgraded when opened: the organization table is created and the version recorded", async () => {
    const db = await database();
    await run({ db, organizations: [ORG_A] }, async (sandbox) => {
      await createCustomer(new Api(sandbox, ORG_A));
    });
    // What a version 1 sandbox left: no organization table, version 1.
    if (db.startsWith("postgres"))
      await sql(db, "DROP TABLE organization; UPDATE sandbox_meta SET value = '1' WHERE key = 'schema_version'");
    else await sql(db, "DROP TABLE organization; PRAGMA user_version = 1;");
    await run({ db, organizations: [ORG_A] }, async (sandbox) => {
      expect((await new Api(sandbox, ORG_A).ok("GET", LIST_CUSTOMERS)).count).toBe(1);
    });
    const version = db.startsWith("postgres")
      ? Number((await sql(db, "SELECT value FROM sandbox_meta WHERE key = 'schema_version'"))[0]!.value)
      : Number((await sql(db, "PRAGMA user_version;"))[0]!.user_version);
    expect(version).toBe(SCHEMA_VERSION);
    expect(await sql(db, "SELECT id FROM organization")).toEqual([{ id: organizationId(ORG_A.apiKey) }]);
  });
});

describe("the directory on a database of its own (SQLite), which remembers what it read", () => {
  async function withDirectory(work: (directory: OrganizationDirectory, store: Store) => Promise<void>): Promise<void> {
    const store = await Store.open();
    try {
      await work(new OrganizationDirectory(store), store);
    } finally {
      await store.close();
    }
  }

  it("reads a replaced secret at the next lookup", async () => {
    await withDirectory(async (directory) => {
      await directory.register([ORG_A]);
      expect((await directory.byKey(ORG_A.apiKey))?.apiSecret).toBe(ORG_A.apiSecret);
      await directory.register([{ ...ORG_A, apiSecret: "replaced" }]);
      expect((await directory.byKey(ORG_A.apiKey))?.apiSecret).toBe("replaced");
    });
  });

  it("remembers nothing a rolled-back transaction wrote", async () => {
    await withDirectory(async (directory, store) => {
      let key = "";
      await expect(
        store.transaction(async () => {
          key = (await directory.add("rolled back")).apiKey;
          expect(await directory.byKey(key)).toBeDefined();
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(await directory.byKey(key)).toBeUndefined();
    });
  });

  it("finds an added organization at once, and refuses a key whose digest matches no stored key", async () => {
    await withDirectory(async (directory) => {
      const added = await directory.add("QA");
      expect((await directory.byKey(added.apiKey))?.id).toBe(added.id);
      expect(await directory.byKey(`${added.apiKey}x`)).toBeUndefined();
    });
  });
});

describe("the admin decisions", () => {
  it.each([
    [false, false, "off"],
    [false, true, "off"],
    [true, false, "refused"],
    [true, true, "allowed"],
  ] as const)("gives a call access %s/%s: %s (configured, carries the token)", (configured, carries, access) => {
    expect(adminAccess(configured, carries)).toBe(access);
  });

  it.each([
    [undefined, undefined],
    ["0123456789abcdef", undefined],
    ["0123456789abcde", "adminToken must be at least 16 characters"],
    [" 0123456789abcdef", "adminToken must not start or end with white space"],
    [42, "adminToken must be a string"],
  ])("judges the admin token option %j: %s", (token, problem) => {
    expect(adminTokenProblem(token)).toBe(problem);
  });

  it.each([
    [`Bearer ${TOKEN}`, true],
    [`bearer ${TOKEN}`, true],
    [`  Bearer ${TOKEN}  `, true],
    [`Bearer ${TOKEN}x`, false],
    [`Bearer ${TOKEN.slice(1)}`, false],
    [TOKEN, false],
    [`Basic ${TOKEN}`, false],
    [undefined, false],
  ])("reads the Authorization header %j as carrying the token: %s", (header, carries) => {
    expect(hasAdminToken(header, TOKEN)).toBe(carries);
  });

  it.each([
    ["QA team", undefined],
    ["x".repeat(200), undefined],
    ["x".repeat(201), "Must be at most 200 characters."],
    ["", "Must be a non-empty string."],
    ["   ", "Must be a non-empty string."],
    [null, "Must be a non-empty string."],
    ["tab\there", "Must not contain control characters."],
  ])("judges the organization name %j: %s", (name, problem) => {
    expect(organizationNameProblem(name)).toBe(problem);
  });
});
