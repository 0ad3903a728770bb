// Links and sessions as the database keeps them (both engines: SANDBOX_TEST_POSTGRES runs this on PostgreSQL):
// digests only, an expiry on each, and a bound per organization and kind, driven by an explicit clock.
import { afterEach, describe, expect, it } from "vitest";
import { ACCESS_LIMITS, DashboardAccess } from "../../src/dashboard/access.js";
import { grantDigest } from "../../src/store/dashboard-grants.js";
import { Store } from "../../src/store/store.js";
import { dropEngineDatabase, engineDatabase } from "../support/engine.js";

const HOUR = 3_600_000;
const opened: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of opened.splice(0)) await close();
});

async function openStore(): Promise<Store> {
  const db = await engineDatabase();
  const store = await Store.open(db ? { path: db } : {});
  opened.push(async () => {
    await store.close();
    if (db) await dropEngineDatabase(db);
  });
  return store;
}

/** Access over a store whose clock the test sets. */
async function accessAt(limits = ACCESS_LIMITS) {
  const clock = { now: Date.UTC(2026, 0, 1) };
  const store = await openStore();
  return { store, clock, access: new DashboardAccess(store, () => clock.now, limits) };
}

describe("dashboard links and sessions in the database", () => {
  it("keeps a digest of each token, never the token", async () => {
    const { store, access } = await accessAt();
    const link = await access.newLink("org-a");
    const session = (await access.open(link))!;
    const rows = (await store
      .statement("SELECT digest FROM dashboard_grant WHERE org = ? ORDER BY seq")
      .all("org-a")) as Array<{
      digest: string;
    }>;
    expect(rows.map((r) => r.digest)).toEqual([grantDigest(link), grantDigest(session.token)]);
    expect(JSON.stringify(rows)).not.toContain(link);
  });

  it("opens sessions with a link for 7 days, and none after", async () => {
    const { clock, access } = await accessAt();
    const link = await access.newLink("org-a");
    clock.now += 7 * 24 * HOUR - 1;
    expect((await access.open(link))?.org).toBe("org-a");
    clock.now += 1;
    expect(await access.open(link)).toBeUndefined();
  });

  it("ends a session 12 hours after it opened", async () => {
    const { clock, access } = await accessAt();
    const { token } = (await access.open(await access.newLink("org-a")))!;
    clock.now += 12 * HOUR - 1;
    expect(await access.session(token)).toBe("org-a");
    clock.now += 1;
    expect(await access.session(token)).toBeUndefined();
  });

  it("drops an organization's oldest sessions past its cap, and none of another organization's", async () => {
    const { access } = await accessAt({ ...ACCESS_LIMITS, sessionsPerOrganization: 3 });
    const a = (await access.open(await access.newLink("org-a")))!;
    const linkOfB = await access.newLink("org-b");
    const ofB: string[] = [];
    for (let i = 0; i < 5; i++) ofB.push((await access.open(linkOfB))!.token);
    expect(await access.session(a.token)).toBe("org-a");
    const sessions = [];
    for (const token of ofB) sessions.push(await access.session(token));
    expect(sessions).toEqual([undefined, undefined, "org-b", "org-b", "org-b"]);
  });

  it("drops an organization's oldest links past its cap", async () => {
    const { access } = await accessAt({ ...ACCESS_LIMITS, linksPerOrganization: 2 });
    const links = [await access.newLink("org-a"), await access.newLink("org-a"), await access.newLink("org-a")];
    const opened = [];
    for (const link of links) opened.push((await access.open(link))?.org);
    expect(opened).toEqual([undefined, "org-a", "org-a"]);
  });

  it("removes expired grants when a new one is made, so the table does not grow with time", async () => {
    const { store, clock, access } = await accessAt();
    for (let i = 0; i < 3; i++) await access.open(await access.newLink(`org-${i}`));
    clock.now += 8 * 24 * HOUR;
    await access.newLink("org-new");
    // (A PostgreSQL test database is a copy of a template that may hold grants of its own: only this test's count.)
    const count = (await store.statement("SELECT COUNT(*) AS n FROM dashboard_grant WHERE org LIKE 'org-%'").get()) as {
      n: number;
    };
    expect(Number(count.n)).toBe(1);
  });

  it("opens nothing for a session token given as a link, or a link token given as a session", async () => {
    const { access } = await accessAt();
    const link = await access.newLink("org-a");
    const { token } = (await access.open(link))!;
    expect(await access.open(token)).toBeUndefined();
    expect(await access.session(link)).toBeUndefined();
  });
});
