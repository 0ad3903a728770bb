// Who sees the dashboard: only a session opened with an organization's token, and only that organization; state
// changes need the session's CSRF token; the API secret never reaches the browser.
import { describe, expect, it } from "vitest";
import { createSandbox } from "../../src/index.js";
import { Api, createCustomer, ORG_A, ORG_B, startSandbox } from "../helpers.js";
import { openDashboard } from "./session.js";

describe("dashboard access", () => {
  it("gives each organization its own link, with its own random token", async () => {
    const sandbox = await startSandbox();
    const links = sandbox.dashboard;
    expect(links.map((l) => l.organizationId)).toEqual(sandbox.organizations.map((o) => o.id));
    const tokens = links.map((l) => new URL(l.url).searchParams.get("token"));
    expect(tokens[0]).toMatch(/^[\w-]{43}$/);
    expect(tokens[0]).not.toBe(tokens[1]);
    expect(links[0]!.url.startsWith(`${sandbox.url}/_dashboard/?token=`)).toBe(true);
  });

  it("opens a session with an HttpOnly, SameSite=Strict cookie and redirects to a URL without the token", async () => {
    const sandbox = await startSandbox();
    const entered = await fetch(sandbox.dashboard[0]!.url, { redirect: "manual" });
    expect(entered.status).toBe(303);
    expect(entered.headers.get("location")).toBe("/_dashboard/");
    expect(entered.headers.get("set-cookie")).toMatch(
      new RegExp(`^exchange_kit_dashboard_${sandbox.port}=[\\w-]+; HttpOnly; SameSite=Strict; Path=/_dashboard$`),
    );
    const session = await openDashboard(sandbox);
    expect((await session.get("session")).body.organization).toEqual({
      id: sandbox.organizations[0]!.id,
      name: ORG_A.name,
    });
  });

  it.each([
    ["the page", "/_dashboard/"],
    ["an asset", "/_dashboard/assets/app.js"],
    ["a call", "/_dashboard/api/records?kind=customers"],
    ["the live stream", "/_dashboard/api/stream"],
  ])("answers %s 401 without a session, showing nothing of any organization", async (_what, path) => {
    const sandbox = await startSandbox();
    await createCustomer(new Api(sandbox), { full_name: "Visible Nowhere" });
    const answer = await fetch(`${sandbox.url}${path}`, { headers: { cookie: "exchange_kit_dashboard_1=forged" } });
    const text = await answer.text();
    expect(answer.status).toBe(401);
    for (const secret of [ORG_A.name, ORG_B.name, "Visible Nowhere", sandbox.organizations[0]!.id])
      expect(text).not.toContain(secret);
  });

  it("answers a forged token 401 and sets no cookie", async () => {
    const sandbox = await startSandbox();
    const answer = await fetch(`${sandbox.url}/_dashboard/?token=${"A".repeat(43)}`, { redirect: "manual" });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("set-cookie")).toBeNull();
    expect(await answer.text()).toContain("not valid");
  });

  it("answers the token of an earlier start 401", async () => {
    const first = await createSandbox({ organizations: [ORG_A] });
    const old = new URL(first.dashboard[0]!.url);
    await first.close();
    const second = await startSandbox({ organizations: [ORG_A] });
    const answer = await fetch(`${second.url}/_dashboard/${old.search}`, { redirect: "manual" });
    expect(answer.status).toBe(401);
  });

  it("shows an organization's session none of another organization's records, in lists or by ID", async () => {
    const sandbox = await startSandbox();
    const customer = await createCustomer(new Api(sandbox));
    const b = await openDashboard(sandbox, 1);
    expect((await b.get("records?kind=customers")).body).toMatchObject({ count: 0, results: [] });
    expect((await b.get(`records?kind=customers&q=${customer.id}`)).body.results).toEqual([]);
    expect((await b.get(`records/customers/${customer.id}`)).status).toBe(404);
    const a = await openDashboard(sandbox, 0);
    expect((await a.get(`records/customers/${customer.id}`)).body.record.id).toBe(customer.id);
  });

  it("refuses a state change without the session's CSRF token (403), and changes nothing", async () => {
    const sandbox = await startSandbox({ autoProgressMs: false });
    const customer = await createCustomer(new Api(sandbox));
    const session = await openDashboard(sandbox);
    const path = `records/customers/${customer.id}/transition`;
    expect((await session.post(path, { status: "VERIFIED" }, {})).status).toBe(403);
    expect((await session.post(path, { status: "VERIFIED" }, { "x-csrf-token": "wrong" })).status).toBe(403);
    const foreign = { "x-csrf-token": session.csrf, origin: "http://evil.example" };
    expect((await session.post(path, { status: "VERIFIED" }, foreign)).status).toBe(403);
    expect((await session.get(`records/customers/${customer.id}`)).body.status).toBe("UNVERIFIED");
    expect(sandbox.events()).toEqual([]);
  });

  it("refuses to redeliver an unknown event with a clear error", async () => {
    const session = await openDashboard(await startSandbox());
    const answer = await session.post("events/00000000-0000-4000-8000-000000000000/redeliver", {});
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: false, err_code: "INPUT_INVALID_PARAMETER" });
    expect(answer.body.message).toContain("No event with this ID");
  });

  it("refuses a status the catalog does not allow for the kind, naming the allowed ones, and changes nothing", async () => {
    const sandbox = await startSandbox({ autoProgressMs: false });
    const customer = await createCustomer(new Api(sandbox));
    const session = await openDashboard(sandbox);
    const answer = await session.post(`records/customers/${customer.id}/transition`, { status: "PROCESSING" });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      err_code: "INPUT_MALFORMED",
      errors: { status: [expect.stringContaining("VERIFIED")] },
    });
    expect((await session.get(`records/customers/${customer.id}`)).body.status).toBe("UNVERIFIED");
  });

  it("never sends the API secret to the browser", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    await createCustomer(api, { full_name: `echo ${ORG_A.apiSecret}` });
    const session = await openDashboard(sandbox);
    const page = await fetch(`${sandbox.url}/_dashboard/`, { headers: { cookie: session.cookie } });
    const seen = [await page.text()];
    const customers = (await session.get("records?kind=customers")).body.results as Array<{ id: string }>;
    for (const path of [
      "session",
      "records?kind=customers",
      `records?kind=all&q=${customers[0]!.id}`,
      `records/customers/${customers[0]!.id}`,
      "events",
      "requests",
      "controls",
    ])
      seen.push((await session.get(path)).text);
    for (const text of seen) {
      expect(text).not.toContain(ORG_A.apiSecret);
      expect(text).not.toContain(ORG_B.apiSecret);
    }
  });

  it("is not served with dashboard: false", async () => {
    const sandbox = await startSandbox({ dashboard: false });
    expect(sandbox.dashboard).toEqual([]);
    expect((await fetch(`${sandbox.url}/_dashboard/`)).status).toBe(404);
  });
});

describe("dashboard records", () => {
  it("pages an organization's customers newest first with their count", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    const made = [];
    for (let i = 0; i < 7; i++) made.push(await createCustomer(api));
    const session = await openDashboard(sandbox);
    const page = (await session.get("records?kind=customers&page=2&per_page=3")).body;
    expect(page.count).toBe(7);
    expect(page.results.map((r: { id: string }) => r.id)).toEqual([made[3].id, made[2].id, made[1].id]);
    const last = (await session.get("records?kind=customers&page=3&per_page=3")).body;
    expect(last.results.map((r: { id: string }) => r.id)).toEqual([made[0].id]);
  });

  it("finds a record by client_reference_id", async () => {
    const sandbox = await startSandbox();
    const customer = await createCustomer(new Api(sandbox));
    const session = await openDashboard(sandbox);
    const found = (await session.get(`records?kind=customers&q=${customer.client_reference_id}`)).body;
    expect(found.results.map((r: { id: string }) => r.id)).toEqual([customer.id]);
  });

  it.each([
    ["an unknown kind", "records?kind=unicorns"],
    ["a page of zero", "records?kind=customers&page=0"],
    ["a page too long", "records?kind=customers&per_page=101"],
  ])("answers %s with a 400 naming the parameter", async (_what, path) => {
    const session = await openDashboard(await startSandbox());
    const answer = await session.get(path);
    expect(answer.status).toBe(400);
    expect(answer.body.err_code).toBe("INPUT_MALFORMED");
  });
});
