// Organizations added while the sandbox runs, through the admin API (POST/GET /_sandbox/admin/organizations,
// guarded by the operator's admin token): the answer carries the new key and secret once, the key works at the
// next request, the list never shows a secret, and an added organization is isolated from the others as the
// started ones are (records, events, request log, dashboard, clock, settings, faults). Runs on both engines.
import { verifyWebhook } from "@exchange-kit/webhook-verify";
import { afterEach, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox, type SandboxOptions } from "../src/index.js";
import { designatedOrganization } from "../src/organizations/admin-api.js";
import { organizationId } from "../src/organizations/organization-id.js";
import { openDashboardLink } from "./dashboard/session.js";
import {
  Api,
  createCustomer,
  ORG_A,
  ORG_B,
  startReceiver,
  startSandbox,
  verifiedCustomer,
  waitFor,
} from "./helpers.js";

const TOKEN = "admin-token-for-the-tests-0123456789";
const LIST_CUSTOMERS = "/cms/api/v1/customer/list";

interface AdminAnswer {
  status: number;
  text: string;
  body: { status: boolean; message: string; data: any; err_code?: string; errors?: any };
}

/** One admin call; `token` null sends no Authorization header. */
async function admin(
  sandbox: Sandbox,
  method: string,
  body?: unknown,
  token: string | null = TOKEN,
  path = "/_sandbox/admin/organizations",
): Promise<AdminAnswer> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: {
      ...(token === null ? {} : { Authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) };
}

/** A sandbox with the admin API on, and one organization added through it (its Api and its answer). */
async function withAddedOrganization(options: SandboxOptions = {}) {
  const sandbox = await startSandbox({ adminToken: TOKEN, ...options });
  const added = (await admin(sandbox, "POST", { name: "QA team" })).body.data;
  const credentials = { apiKey: added.api_key as string, apiSecret: added.api_secret as string };
  return { sandbox, added, a: new Api(sandbox, ORG_A), r: new Api(sandbox, credentials) };
}

describe("adding an organization while the sandbox runs", () => {
  it("answers 201 with the new organization's ID, key and secret, and its key works at the next request", async () => {
    const sandbox = await startSandbox({ adminToken: TOKEN });
    const answer = await admin(sandbox, "POST", { name: "QA team" });
    expect(answer.status).toBe(201);
    const added = answer.body.data;
    expect(added).toMatchObject({ name: "QA team", id: organizationId(added.api_key) });
    expect(added.api_key).toMatch(/^sbx_[0-9a-f]{24}$/);
    expect(added.api_secret.length).toBeGreaterThanOrEqual(40);
    const r = new Api(sandbox, { apiKey: added.api_key, apiSecret: added.api_secret });
    expect((await r.ok("GET", LIST_CUSTOMERS)).count).toBe(0);
  });

  it("lists the started and the added organizations with their keys, and no secret at all", async () => {
    const { sandbox, added } = await withAddedOrganization();
    const list = await admin(sandbox, "GET");
    expect(list.status).toBe(200);
    expect(list.body.data.map((o: { name: string }) => o.name)).toEqual(["Org A", "Org B", "QA team"]);
    expect(list.body.data[2]).toEqual({
      id: added.id,
      name: "QA team",
      api_key: added.api_key,
      created_at: added.created_at,
    });
    for (const secret of [ORG_A.apiSecret, ORG_B.apiSecret, added.api_secret]) expect(list.text).not.toContain(secret);
  });

  it("refuses with 403, saying how to turn it on, when the sandbox was started without an admin token", async () => {
    const sandbox = await startSandbox();
    for (const method of ["POST", "GET"]) {
      const answer = await admin(sandbox, method, method === "POST" ? { name: "x" } : undefined);
      expect(answer.status).toBe(403);
      expect(answer.body.message).toMatch(/admin API is off.*--admin-token.*EXCHANGE_KIT_SANDBOX_ADMIN_TOKEN/);
    }
  });

  it("refuses a missing or wrong admin token with 401 and adds nothing", async () => {
    const sandbox = await startSandbox({ adminToken: TOKEN });
    expect((await admin(sandbox, "POST", { name: "x" }, null)).status).toBe(401);
    const wrong = await admin(sandbox, "POST", { name: "x" }, `${TOKEN}x`);
    expect(wrong).toMatchObject({ status: 401, body: { err_code: "AUTH_UNAUTHORIZED" } });
    expect(wrong.body.message).toMatch(/Authorization: Bearer/);
    expect((await admin(sandbox, "GET")).body.data).toHaveLength(2);
  });

  it("refuses a missing, blank, too long or non-text name with 400 naming the field", async () => {
    const sandbox = await startSandbox({ adminToken: TOKEN });
    for (const body of [{}, { name: "  " }, { name: "x".repeat(201) }, { name: 7 }, { name: "a\nb" }]) {
      const answer = await admin(sandbox, "POST", body);
      expect(answer).toMatchObject({ status: 400, body: { err_code: "INPUT_MALFORMED" } });
      expect(Object.keys(answer.body.errors)).toEqual(["name"]);
    }
    expect((await admin(sandbox, "GET")).body.data).toHaveLength(2);
  });

  it("answers 404 for another path under /_sandbox/admin and 405 for another method", async () => {
    const sandbox = await startSandbox({ adminToken: TOKEN });
    expect((await admin(sandbox, "GET", undefined, TOKEN, "/_sandbox/admin/users")).status).toBe(404);
    expect((await admin(sandbox, "DELETE")).status).toBe(405);
  });

  it("refuses at start an admin token shorter than 16 characters, before opening anything", async () => {
    await expect(createSandbox({ adminToken: "short" })).rejects.toThrow(/adminToken must be at least 16/);
  });

  it("moves an added organization's clock through the handle, by ID and with every organization's", async () => {
    const { sandbox, added } = await withAddedOrganization();
    const before = (await sandbox.clock.now(added.id)).getTime();
    await sandbox.clock.advance(3600, added.id);
    await sandbox.clock.advance(60);
    expect((await sandbox.clock.now(added.id)).getTime() - before).toBeGreaterThanOrEqual(3660_000);
  });
});

describe("an added organization is isolated from the others", () => {
  it("sees none of another organization's records, and they none of its", async () => {
    const { a, r } = await withAddedOrganization();
    const ofA = await createCustomer(a);
    const ofR = await createCustomer(r);
    expect((await r.ok("GET", LIST_CUSTOMERS)).results.map((c: { id: string }) => c.id)).toEqual([ofR.id]);
    expect((await a.ok("GET", LIST_CUSTOMERS)).results.map((c: { id: string }) => c.id)).toEqual([ofA.id]);
    expect((await r.request("GET", `/cms/api/v1/customer/${ofA.id}`)).status).toBe(400);
    expect((await a.request("GET", `/cms/api/v1/customer/${ofR.id}`)).status).toBe(400);
  });

  it("sees only its own events and request log entries", async () => {
    const { a, r, added } = await withAddedOrganization();
    const ofA = await verifiedCustomer(a);
    const ofR = await createCustomer(r);
    const events = (await r.ok("GET", "/_sandbox/events")).results;
    expect(JSON.stringify(events)).not.toContain(ofA.id);
    const requests = (await r.ok("GET", "/_sandbox/requests")).results as Array<{ path: string; response?: unknown }>;
    expect(requests.length).toBeGreaterThan(0);
    expect(JSON.stringify(requests)).toContain(ofR.id);
    expect(JSON.stringify(requests)).not.toContain(ofA.id);
    expect(JSON.stringify((await a.ok("GET", "/_sandbox/requests")).results)).not.toContain(ofR.id);
    expect(JSON.stringify((await a.ok("GET", "/_sandbox/requests")).results)).not.toContain(added.api_secret);
  });

  it("changes only its own clock, settings and faults through the control API", async () => {
    const { a, r } = await withAddedOrganization();
    const settingsOfA = await a.ok("GET", "/_sandbox/settings");
    await r.ok("POST", "/_sandbox/settings", { auto_progress_ms: false, quotation_ttl_seconds: 1 });
    await r.ok("POST", "/_sandbox/clock/advance", { seconds: 86_400 });
    await r.ok("POST", "/_sandbox/faults", { operation: "listCustomers", fault: "HTTP_503", times: 5 });
    expect(await a.ok("GET", "/_sandbox/settings")).toEqual(settingsOfA);
    expect((await a.ok("GET", "/_sandbox/clock")).offset_seconds).toBe(0);
    expect((await a.request("GET", LIST_CUSTOMERS)).status).toBe(200);
    expect((await a.ok("GET", "/_sandbox/faults")).armed).toEqual([]);
    expect((await r.request("GET", LIST_CUSTOMERS)).status).toBe(503);
  });

  it("receives only its own events at its webhook, signed with its own secret", async () => {
    const { sandbox, a, r, added } = await withAddedOrganization();
    const receiver = await startReceiver();
    await r.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
    await verifiedCustomer(a);
    const ofR = await verifiedCustomer(r);
    await waitFor(() => receiver.deliveries.length >= 1, "R's event");
    await sandbox.deliveriesSettled();
    expect(receiver.deliveries.map((d) => d.body.id)).toEqual([ofR.id]);
    const credentials = { apiKey: added.api_key, apiSecret: added.api_secret };
    const event = await verifyWebhook({
      ...credentials,
      body: receiver.deliveries[0]!.raw,
      headers: receiver.deliveries[0]!.headers,
    });
    expect(event).toMatchObject({ type: "CUSTOMER", id: ofR.id });
  });

  it("opens its dashboard link on its own records only, and another's link on none of its", async () => {
    const { sandbox, a, r, added } = await withAddedOrganization();
    const ofA = await createCustomer(a);
    const ofR = await createCustomer(r);
    const mine = await openDashboardLink(added.dashboard_url);
    expect((await mine.get("session")).body.organization).toMatchObject({ id: added.id, name: "QA team" });
    expect((await mine.get("records?kind=customers")).body.results.map((c: { id: string }) => c.id)).toEqual([ofR.id]);
    expect((await mine.get(`records/customers/${ofA.id}`)).status).toBe(404);
    const ofOrgA = await openDashboardLink(sandbox.dashboard[0]!.url);
    expect((await ofOrgA.get(`records/customers/${ofR.id}`)).status).toBe(404);
  });
});

describe("dashboard links made through the admin API", () => {
  const LINKS = "/_sandbox/admin/dashboard-links";

  it("makes a new link of an organization named by its name, API key or ID, each opening that organization", async () => {
    const { sandbox, added } = await withAddedOrganization();
    for (const organization of ["QA team", added.api_key, added.id]) {
      const answer = await admin(sandbox, "POST", { organization }, TOKEN, LINKS);
      expect(answer.status).toBe(201);
      expect(answer.body.data.organization).toMatchObject({ id: added.id, name: "QA team" });
      expect(answer.body.data.dashboard_path).toMatch(/^\/_dashboard\/#token=[\w-]{43}$/);
      expect(answer.body.data.dashboard_url).toBe(`${sandbox.url}${answer.body.data.dashboard_path}`);
      expect(answer.text).not.toContain(added.api_secret);
      const session = await openDashboardLink(answer.body.data.dashboard_url);
      expect((await session.get("session")).body.organization.id).toBe(added.id);
    }
  });

  it("answers 404 for an organization nobody has, 400 for a name two share or none, and makes no link", async () => {
    const { sandbox } = await withAddedOrganization();
    await admin(sandbox, "POST", { name: "QA team" });
    const unknown = await admin(sandbox, "POST", { organization: "Nobody" }, TOKEN, LINKS);
    expect(unknown).toMatchObject({ status: 404, body: { err_code: "NOT_FOUND" } });
    const shared = await admin(sandbox, "POST", { organization: "QA team" }, TOKEN, LINKS);
    expect(shared).toMatchObject({ status: 400, body: { err_code: "INPUT_MALFORMED" } });
    expect(shared.body.errors.organization[0]).toMatch(/^Give one's API key instead: sbx_\w+, sbx_\w+\.$/);
    for (const body of [{}, { organization: " " }, { organization: 7 }])
      expect((await admin(sandbox, "POST", body, TOKEN, LINKS)).status).toBe(400);
  });

  it("refuses without the admin token (401) and any method but POST (405)", async () => {
    const sandbox = await startSandbox({ adminToken: TOKEN });
    expect((await admin(sandbox, "POST", { organization: ORG_A.apiKey }, null, LINKS)).status).toBe(401);
    expect((await admin(sandbox, "GET", undefined, TOKEN, LINKS)).status).toBe(405);
  });

  it("answers 404 when the sandbox serves no dashboard, and adds organizations without a link", async () => {
    const sandbox = await startSandbox({ adminToken: TOKEN, dashboard: false });
    expect((await admin(sandbox, "POST", { organization: ORG_A.apiKey }, TOKEN, LINKS)).status).toBe(404);
    const added = (await admin(sandbox, "POST", { name: "QA team" })).body.data;
    expect(added).not.toHaveProperty("dashboard_url");
    expect(added).not.toHaveProperty("dashboard_path");
  });

  describe("designatedOrganization", () => {
    const org = (id: string, name: string, apiKey: string) => ({ id, name, apiKey, apiSecret: "s", createdAt: "" });
    const list = [org("i1", "A", "k1"), org("i2", "B", "k2"), org("i3", "B", "k3"), org("k1", "C", "k4")];
    it.each([
      ["an API key", "k2", "i2"],
      ["an ID", "i3", "i3"],
      ["a name one organization has", "A", "i1"],
      ["a key before an ID that spells it", "k1", "i1"],
      ["a name nobody has", "Z", "404"],
      ["a name two share", "B", "400"],
    ])("%s (%s): %s", (_what, given, expected) => {
      let found: string;
      try {
        found = designatedOrganization(list, given).id;
      } catch (error) {
        found = String((error as { status: number }).status);
      }
      expect(found).toBe(expected);
    });
  });
});

describe("secrets and the admin token in the log", () => {
  const lines: string[] = [];
  afterEach(() => {
    lines.length = 0;
  });

  it("writes no organization secret and no admin token into any log line", async () => {
    const log = (line: unknown) => lines.push(String(line));
    const { sandbox, r, added } = await withAddedOrganization({ logger: { info: log, warn: log, error: log } });
    await createCustomer(r);
    await admin(sandbox, "GET");
    await admin(sandbox, "POST", { name: "x" }, "a-wrong-admin-token-0000");
    await new Api(sandbox, { apiKey: added.api_key, apiSecret: "not-the-secret" }).request("GET", LIST_CUSTOMERS);
    expect(lines.some((line) => line.includes("/_sandbox/admin/organizations 201"))).toBe(true);
    expect(lines.some((line) => line.includes("/_sandbox/admin/organizations 401"))).toBe(true);
    for (const secret of [added.api_secret, ORG_A.apiSecret, ORG_B.apiSecret, TOKEN])
      expect(lines.filter((line) => line.includes(secret))).toEqual([]);
  });
});
