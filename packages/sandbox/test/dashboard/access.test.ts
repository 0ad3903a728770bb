// Who sees the dashboard: only a session opened with an organization's link, carried in an Authorization header
// from the dashboard's own origin, and only that organization; cookies open nothing; sessions and live streams
// are bounded per organization and per session; the API secret never reaches the browser.
import { describe, expect, it } from "vitest";
import { createSandbox } from "../../src/index.js";
import { Api, createCustomer, ORG_A, ORG_B, startSandbox } from "../helpers.js";
import { exchangeLink, linkToken, openDashboard, sessionOn } from "./session.js";

const NOWHERE = "Visible Nowhere";

/** Calls until one answers `status` (a closed stream is counted off once the server sees its socket close). */
async function waitForStatus(call: () => Promise<Response>, status: number): Promise<void> {
  const seen: number[] = [];
  for (let tries = 0; tries < 50; tries++) {
    const answer = await call();
    if (answer.status === status) return;
    seen.push(answer.status);
    await answer.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never answered ${status}: ${seen.join(", ")}`);
}

describe("dashboard access", () => {
  it("gives each organization its own link, its random token in the URL's fragment", async () => {
    const sandbox = await startSandbox();
    const links = sandbox.dashboard;
    expect(links.map((l) => l.organizationId)).toEqual(sandbox.organizations.map((o) => o.id));
    expect(links.map((l) => l.apiKey)).toEqual([ORG_A.apiKey, ORG_B.apiKey]);
    const tokens = links.map((l) => linkToken(l.url));
    expect(tokens[0]).toMatch(/^[\w-]{43}$/);
    expect(tokens[0]).not.toBe(tokens[1]);
    expect(links[0]!.url.startsWith(`${sandbox.url}/_dashboard/#token=`)).toBe(true);
  });

  it("exchanges a link's token for a new session token of the link's organization", async () => {
    const sandbox = await startSandbox();
    const answer = await exchangeLink(sandbox.url, linkToken(sandbox.dashboard[1]!.url));
    expect(answer.status).toBe(201);
    expect(answer.headers.get("set-cookie")).toBeNull();
    const opened = (await answer.json()) as { token: string; organization: unknown };
    expect(opened.token).toMatch(/^[\w-]{43}$/);
    expect(opened.token).not.toBe(linkToken(sandbox.dashboard[1]!.url));
    const organization = { id: sandbox.organizations[1]!.id, name: ORG_B.name };
    expect(opened.organization).toEqual(organization);
    expect((await sessionOn(sandbox.url, opened.token).get("session")).body.organization).toEqual(organization);
  });

  it("opens a session from a link as often as it is opened, each with its own token", async () => {
    const sandbox = await startSandbox();
    const [first, second] = [await openDashboard(sandbox), await openDashboard(sandbox)];
    expect(first.token).not.toBe(second.token);
    for (const session of [first, second]) expect((await session.get("session")).status).toBe(200);
  });

  it.each([
    ["no Authorization header", {}],
    ["a forged session token", { authorization: `Bearer ${"A".repeat(43)}` }],
    ["another scheme", { authorization: "Basic a2V5OnNlY3JldA==" }],
    ["a link's token in place of a session's", "link"],
  ])(
    "answers every call and the live stream 401 with %s, showing nothing of any organization",
    async (_what, given) => {
      const sandbox = await startSandbox();
      await createCustomer(new Api(sandbox), { full_name: NOWHERE });
      const headers = given === "link" ? { authorization: `Bearer ${linkToken(sandbox.dashboard[0]!.url)}` } : given;
      for (const path of ["session", "records?kind=customers", "events", "requests", "controls", "stream"]) {
        const answer = await fetch(`${sandbox.url}/_dashboard/api/${path}`, { headers });
        const text = await answer.text();
        expect(answer.status).toBe(401);
        expect(JSON.parse(text)).toMatchObject({ status: false, err_code: "AUTH_UNAUTHORIZED" });
        for (const secret of [ORG_A.name, ORG_B.name, NOWHERE, sandbox.organizations[0]!.id])
          expect(text).not.toContain(secret);
      }
    },
  );

  it("opens nothing with a session token sent as a cookie", async () => {
    const sandbox = await startSandbox();
    const session = await openDashboard(sandbox);
    const cookie = `exchange_kit_dashboard_${sandbox.port}=${session.token}; session=${session.token}`;
    const answer = await fetch(`${sandbox.url}/_dashboard/api/records?kind=customers`, { headers: { cookie } });
    expect(answer.status).toBe(401);
  });

  it("serves the page and its files to anyone, holding nothing of any organization", async () => {
    const sandbox = await startSandbox();
    await createCustomer(new Api(sandbox), { full_name: NOWHERE });
    for (const path of ["/_dashboard/", "/_dashboard/assets/app.js", "/_dashboard/assets/api.js"]) {
      const answer = await fetch(`${sandbox.url}${path}`);
      const text = await answer.text();
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-security-policy")).toContain("script-src 'self'");
      expect(answer.headers.get("set-cookie")).toBeNull();
      for (const secret of [ORG_A.name, ORG_B.name, NOWHERE, sandbox.organizations[0]!.id])
        expect(text).not.toContain(secret);
    }
  });

  it("answers a forged link 401 and opens no session", async () => {
    const sandbox = await startSandbox();
    const answer = await exchangeLink(sandbox.url, "A".repeat(43));
    expect(answer.status).toBe(401);
    expect(((await answer.json()) as { message: string }).message).toContain("not valid");
    for (const link of [undefined, 7, ""]) {
      const odd = await fetch(`${sandbox.url}/_dashboard/api/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ link }),
      });
      expect(odd.status).toBe(401);
    }
  });

  it("answers 401 to a link of another sandbox's database", async () => {
    const first = await createSandbox({ organizations: [ORG_A] });
    const old = linkToken(first.dashboard[0]!.url);
    await first.close();
    const second = await startSandbox({ organizations: [ORG_A] });
    expect((await exchangeLink(second.url, old)).status).toBe(401);
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

  it("refuses a state change without the session (401) or from another origin (403), and changes nothing", async () => {
    const sandbox = await startSandbox({ autoProgressMs: false });
    const customer = await createCustomer(new Api(sandbox));
    const session = await openDashboard(sandbox);
    const path = `records/customers/${customer.id}/transition`;
    const anonymous = sessionOn(sandbox.url, "");
    expect((await anonymous.post(path, { status: "VERIFIED" }, { authorization: "" })).status).toBe(401);
    for (const origin of ["http://evil.example", `http://127.0.0.1:${sandbox.port + 1}`])
      expect((await session.post(path, { status: "VERIFIED" }, { origin })).status).toBe(403);
    expect((await session.get(`records/customers/${customer.id}`)).body.status).toBe("UNVERIFIED");
    expect(await sandbox.events()).toEqual([]);
  });

  it("opens no session for a page of another origin (403)", async () => {
    const sandbox = await startSandbox();
    const answer = await exchangeLink(sandbox.url, linkToken(sandbox.dashboard[0]!.url), {
      origin: `http://127.0.0.1:${sandbox.port + 1}`,
    });
    expect(answer.status).toBe(403);
  });

  it("keeps an organization's session when another organization's link is opened past the session cap", async () => {
    const sandbox = await startSandbox();
    const a = await openDashboard(sandbox, 0);
    const firstOfB = await openDashboard(sandbox, 1);
    // 100 sessions are kept per organization: B's 101 newer ones log out B's first, and none of A's.
    for (let i = 0; i < 100; i++) await openDashboard(sandbox, 1);
    expect((await a.get("session")).status).toBe(200);
    expect((await firstOfB.get("session")).status).toBe(401);
  });

  it("refuses a session a fifth live stream until one of its four closes (429)", async () => {
    const sandbox = await startSandbox();
    const session = await openDashboard(sandbox);
    const other = await openDashboard(sandbox);
    const readers = Array.from({ length: 4 }, () => new AbortController());
    try {
      const stream = (signal?: AbortSignal) =>
        fetch(`${sandbox.url}/_dashboard/api/stream`, { headers: session.headers, ...(signal ? { signal } : {}) });
      for (const reader of readers) expect((await stream(reader.signal)).status).toBe(200);
      const refused = await stream();
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { err_code: string }).err_code).toBe("TOO_MANY_REQUESTS");
      const ofOther = await fetch(`${sandbox.url}/_dashboard/api/stream`, {
        headers: other.headers,
        signal: readers[0]!.signal,
      });
      expect(ofOther.status).toBe(200);
      readers[0]!.abort();
      const again = new AbortController();
      readers.push(again);
      await waitForStatus(() => stream(again.signal), 200);
    } finally {
      for (const reader of readers) reader.abort();
    }
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
    const page = await fetch(`${sandbox.url}/_dashboard/`);
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
    for (let i = 0; i < 7; i++) {
      made.push(await createCustomer(api));
      // Each a second after the one before on the sandbox's clock: two creates in one millisecond tie on created_at,
      // and ties list in creation order.
      await api.ok("POST", "/_sandbox/clock/advance", { seconds: 1 });
    }
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
