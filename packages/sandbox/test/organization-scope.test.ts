// The control API's settings and clock belong to the caller's organization: what organization A changes never
// changes what organization B sees, and A's own changes do take effect for A.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../src/index.js";
import {
  Api,
  createCustomer,
  kycBody,
  ORG_A,
  ORG_B,
  payoutQuotationBody,
  startReceiver,
  startSandbox,
  verifiedBank,
  verifiedCustomer,
  waitFor,
} from "./helpers.js";

const QUOTE = "/pos/api/v1/payout/quotation";
const INITIATE = "/pos/api/v1/payout/initiate";
const DAY = 86_400;

/** A and B, each with a verified customer and bank account (automatic progress at the sandbox's default). */
async function twoOrganizations(options: Parameters<typeof startSandbox>[0] = {}) {
  const sandbox = await startSandbox(options);
  const a = new Api(sandbox, ORG_A);
  const b = new Api(sandbox, ORG_B);
  return { sandbox, a, b };
}

async function readyToQuote(api: Api) {
  const customer = await verifiedCustomer(api);
  const bank = await verifiedBank(api, customer.id);
  return { customer, bank };
}

/** A changes every setting and moves its clock a day: the whole attack of the issue. */
async function attack(a: Api) {
  await a.ok("POST", "/_sandbox/settings", {
    auto_progress_ms: false,
    duplicate_deliveries: true,
    quotation_ttl_seconds: 1,
  });
  await a.ok("POST", "/_sandbox/clock/advance", { seconds: DAY });
}

async function kycStatus(api: Api, customerId: string): Promise<string> {
  return (await api.ok("GET", `/cms/api/v1/customer/${customerId}`)).status;
}

function orgId(sandbox: Sandbox, index: number): string {
  return sandbox.organizations[index]!.id;
}

describe("settings and clock per organization", () => {
  it("leaves B's settings and clock as they were when A changes every setting and advances its clock", async () => {
    const { a, b } = await twoOrganizations();
    const settingsBefore = await b.ok("GET", "/_sandbox/settings");
    await attack(a);
    expect(await b.ok("GET", "/_sandbox/settings")).toEqual(settingsBefore);
    expect((await b.ok("GET", "/_sandbox/clock")).offset_seconds).toBe(0);
    expect(await a.ok("GET", "/_sandbox/settings")).toMatchObject({
      auto_progress_ms: false,
      duplicate_deliveries: true,
      quotation_ttl_seconds: 1,
    });
    expect((await a.ok("GET", "/_sandbox/clock")).offset_seconds).toBe(DAY);
  });

  it("keeps B's new quotation valid for B's TTL after A sets a 1 s TTL and moves its clock a day", async () => {
    const { a, b } = await twoOrganizations();
    const { customer, bank } = await readyToQuote(b);
    await attack(a);
    const quote = await b.ok("POST", QUOTE, payoutQuotationBody(customer.id, bank.id));
    expect(Date.parse(quote.expiry_time) - Date.parse(quote.created_at)).toBe(300_000);
    expect(Math.abs(Date.parse(quote.created_at) - Date.now())).toBeLessThan(60_000);
    expect((await b.post(INITIATE, { quotation_id: quote.id })).status).toBe(200);
  });

  it("gives A's quotations A's 1 s TTL on A's clock, so they expire once A's clock passes it", async () => {
    const { a } = await twoOrganizations();
    const { customer, bank } = await readyToQuote(a);
    await attack(a);
    const quote = await a.ok("POST", QUOTE, payoutQuotationBody(customer.id, bank.id));
    expect(Date.parse(quote.expiry_time) - Date.parse(quote.created_at)).toBe(1_000);
    expect(Date.parse(quote.created_at) - Date.now()).toBeGreaterThan(DAY * 1000 - 60_000);
    await a.ok("POST", "/_sandbox/clock/advance", { seconds: 2 });
    expect((await a.post(INITIATE, { quotation_id: quote.id })).body.err_code).toBe("PAYOUT_QUOTATION_EXPIRED");
  });

  it("keeps B's automatic progress running while A's records wait for the control API", async () => {
    const { a, b } = await twoOrganizations();
    await attack(a);
    const customerA = await createCustomer(a);
    const customerB = await createCustomer(b);
    await a.ok("POST", "/cms/api/v1/kyc/add-kyc-data", kycBody(customerA.id));
    await b.ok("POST", "/cms/api/v1/kyc/add-kyc-data", kycBody(customerB.id));
    await waitFor(async () => (await kycStatus(b, customerB.id)) === "VERIFIED", "B's KYC outcome");
    // B's step ran; A's, submitted first with the same delay before A switched progress off, has no timer at all.
    await new Promise((r) => setTimeout(r, 50));
    expect(await kycStatus(a, customerA.id)).toBe("UNVERIFIED");
    await a.ok("POST", "/_sandbox/settings", { auto_progress_ms: 0 });
    await waitFor(async () => (await kycStatus(a, customerA.id)) === "VERIFIED", "A's KYC once resumed");
  });

  it("delivers A's events twice and B's once after A turns duplicate deliveries on", async () => {
    const { sandbox, a, b } = await twoOrganizations();
    const receiverA = await startReceiver();
    const receiverB = await startReceiver();
    await a.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiverA.url });
    await b.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiverB.url });
    await a.ok("POST", "/_sandbox/settings", { duplicate_deliveries: true });
    await verifiedCustomer(a);
    await verifiedCustomer(b);
    await sandbox.deliveriesSettled();
    expect(receiverA.deliveries.map((d) => d.headers["x-sandbox-event-id"])).toEqual([
      receiverA.deliveries[0]!.headers["x-sandbox-event-id"],
      receiverA.deliveries[0]!.headers["x-sandbox-event-id"],
    ]);
    expect(receiverB.deliveries).toHaveLength(1);
  });

  it("stamps each organization's records and webhook events with its own clock", async () => {
    const { sandbox, a, b } = await twoOrganizations();
    const tomorrow = (await a.ok("POST", "/_sandbox/clock/advance", { seconds: DAY })).now.slice(0, 10);
    const customerA = await verifiedCustomer(a);
    const customerB = await verifiedCustomer(b);
    await sandbox.deliveriesSettled();
    const createdFrom = (api: Api, day: string) =>
      api
        .ok("GET", "/cms/api/v1/customer/list", undefined, { query: { start_date: day } })
        .then((page) => page.results.map((c: { id: string }) => c.id));
    expect(await createdFrom(a, tomorrow)).toEqual([customerA.id]);
    expect(await createdFrom(b, tomorrow)).toEqual([]);
    expect(await createdFrom(b, new Date().toISOString().slice(0, 10))).toEqual([customerB.id]);
    const eventTime = async (api: Api) =>
      Date.parse((await api.ok("GET", "/_sandbox/events")).results[0].body.timestamp);
    expect((await eventTime(a)) - Date.now()).toBeGreaterThan(DAY * 1000 - 60_000);
    expect(Math.abs((await eventTime(b)) - Date.now())).toBeLessThan(60_000);
  });

  it("does not hurry B's pending steps when A sets its delay to 0", async () => {
    const { a, b } = await twoOrganizations({ autoProgressMs: 60_000 });
    const customerB = await createCustomer(b);
    await b.ok("POST", "/cms/api/v1/kyc/add-kyc-data", kycBody(customerB.id));
    const customerA = await createCustomer(a);
    await a.ok("POST", "/cms/api/v1/kyc/add-kyc-data", kycBody(customerA.id));
    await a.ok("POST", "/_sandbox/settings", { auto_progress_ms: 0 });
    await waitFor(async () => (await kycStatus(a, customerA.id)) === "VERIFIED", "A's KYC with A's new delay");
    expect(await kycStatus(b, customerB.id)).toBe("UNVERIFIED");
    expect((await b.ok("GET", "/_sandbox/settings")).auto_progress_ms).toBe(60_000);
  });

  it("fires no pending step of either organization when A advances its clock (timers run on real time)", async () => {
    const { a, b } = await twoOrganizations({ autoProgressMs: 60_000 });
    const customerA = await createCustomer(a);
    const customerB = await createCustomer(b);
    await a.ok("POST", "/cms/api/v1/kyc/add-kyc-data", kycBody(customerA.id));
    await b.ok("POST", "/cms/api/v1/kyc/add-kyc-data", kycBody(customerB.id));
    await a.ok("POST", "/_sandbox/clock/advance", { seconds: 365 * DAY });
    await new Promise((r) => setTimeout(r, 50));
    expect(await kycStatus(a, customerA.id)).toBe("UNVERIFIED");
    expect(await kycStatus(b, customerB.id)).toBe("UNVERIFIED");
  });

  it("has no way for A to name B in a settings call: an unknown member is refused and nothing changes", async () => {
    const { sandbox, a, b } = await twoOrganizations();
    const before = await b.ok("GET", "/_sandbox/settings");
    const res = await a.post("/_sandbox/settings", { organization_id: orgId(sandbox, 1), quotation_ttl_seconds: 1 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ err_code: "INPUT_MALFORMED", errors: { organization_id: [expect.any(String)] } });
    expect(await a.ok("GET", "/_sandbox/settings")).toEqual(before);
    expect(await b.ok("GET", "/_sandbox/settings")).toEqual(before);
  });

  it("answers each organization's own settings and clock whatever the query names", async () => {
    const { sandbox, a, b } = await twoOrganizations();
    await attack(a);
    const query = { org: orgId(sandbox, 0), organization_id: orgId(sandbox, 0) };
    expect((await b.ok("GET", "/_sandbox/settings", undefined, { query })).quotation_ttl_seconds).toBe(300);
    expect((await b.ok("GET", "/_sandbox/clock", undefined, { query })).offset_seconds).toBe(0);
  });
});

describe("the clock handle of createSandbox", () => {
  it("moves one organization's clock when given its ID, and reads each one's time", async () => {
    const sandbox = await startSandbox();
    const [a, b] = [orgId(sandbox, 0), orgId(sandbox, 1)];
    await sandbox.clock.advance(3600, b);
    expect((await sandbox.clock.now(b)).getTime() - (await sandbox.clock.now(a)).getTime()).toBeGreaterThanOrEqual(
      3_599_000,
    );
    expect((await new Api(sandbox, ORG_A).ok("GET", "/_sandbox/clock")).offset_seconds).toBe(0);
    expect((await new Api(sandbox, ORG_B).ok("GET", "/_sandbox/clock")).offset_seconds).toBe(3600);
  });

  it("moves every organization's clock without an ID, and reads the first organization's", async () => {
    const sandbox = await startSandbox();
    await sandbox.clock.advance(60);
    expect((await new Api(sandbox, ORG_A).ok("GET", "/_sandbox/clock")).offset_seconds).toBe(60);
    expect((await new Api(sandbox, ORG_B).ok("GET", "/_sandbox/clock")).offset_seconds).toBe(60);
    expect((await sandbox.clock.now()).getTime() - Date.now()).toBeGreaterThan(59_000);
  });

  it("throws a TypeError for an ID that is not one of its organizations", async () => {
    const sandbox = await startSandbox();
    await expect(sandbox.clock.advance(1, "not-an-organization")).rejects.toThrow(TypeError);
    await expect(sandbox.clock.now("not-an-organization")).rejects.toThrow(TypeError);
  });
});

describe("the clocks on a database file", () => {
  const dir = mkdtempSync(join(tmpdir(), "sandbox-clocks-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const options = { organizations: [ORG_A, ORG_B], autoProgressMs: false as const };

  async function offsets(sandbox: Sandbox): Promise<number[]> {
    return Promise.all(
      [ORG_A, ORG_B].map(async (org) => (await new Api(sandbox, org).ok("GET", "/_sandbox/clock")).offset_seconds),
    );
  }

  it("keeps each organization's clock offset across a restart", async () => {
    const file = join(dir, "per-org.db");
    const first = await createSandbox({ ...options, db: file });
    await new Api(first, ORG_A).ok("POST", "/_sandbox/clock/advance", { seconds: DAY });
    await first.close();
    const second = await createSandbox({ ...options, db: file });
    try {
      expect(await offsets(second)).toEqual([DAY, 0]);
    } finally {
      await second.close();
    }
  });

  it("starts every organization from the one offset a file of an earlier version kept", async () => {
    const file = join(dir, "shared-offset.db");
    // The earlier version kept a single offset under "clock_offset_ms".
    const first = await createSandbox(
      { ...options, db: file },
      { prepare: async (store) => await store.setMeta("clock_offset_ms", "60000") },
    );
    await first.close();
    const second = await createSandbox({ ...options, db: file });
    try {
      expect(await offsets(second)).toEqual([60, 60]);
      await new Api(second, ORG_B).ok("POST", "/_sandbox/clock/advance", { seconds: 30 });
      expect(await offsets(second)).toEqual([60, 90]);
    } finally {
      await second.close();
    }
  });
});
