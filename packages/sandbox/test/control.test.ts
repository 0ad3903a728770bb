import { describe, expect, it } from "vitest";
import {
  Api,
  createCustomer,
  ORG_B,
  payoutQuotationBody,
  startReceiver,
  startSandbox,
  verifiedBank,
  verifiedCustomer,
  waitFor,
} from "./helpers.js";

describe("control API", () => {
  it("advances the sandbox clock, which record timestamps follow, while authentication keeps real time", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    const before = await api.ok("GET", "/_sandbox/clock");
    const after = await api.ok("POST", "/_sandbox/clock/advance", { seconds: 86400 });
    expect(after.offset_seconds).toBe(86400);
    expect(Date.parse(after.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(86400_000);
    const customer = await createCustomer(api);
    const list = await api.ok("GET", "/cms/api/v1/customer/list", undefined, {
      query: { start_date: after.now.slice(0, 10) },
    });
    expect(list.results.map((c: { id: string }) => c.id)).toEqual([customer.id]);
    expect((await api.post("/_sandbox/clock/advance", { seconds: "ten" })).body.err_code).toBe("INPUT_MALFORMED");
  });

  it.each([
    ["past the year 9999", 1e300],
    ["before 1970", -1e12],
  ])("refuses to move the clock %s, and the clock stays where it was", async (_what, seconds) => {
    const api = new Api(await startSandbox());
    const res = await api.post("/_sandbox/clock/advance", { seconds });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ err_code: "INPUT_MALFORMED", errors: { seconds: [expect.any(String)] } });
    expect((await api.ok("GET", "/_sandbox/clock")).offset_seconds).toBe(0);
    expect((await api.get("/cms/api/v1/customer/list")).status).toBe(200);
  });

  it.each([
    ["auto_progress_ms", 2 ** 31],
    ["auto_progress_ms", -1],
    ["auto_progress_ms", true],
    ["quotation_ttl_seconds", 0],
    ["quotation_ttl_seconds", 31_536_001],
    ["duplicate_deliveries", "yes"],
    ["auto_progres_ms", 0],
  ])("refuses the setting %s = %j, naming it, and changes nothing", async (name, value) => {
    const api = new Api(await startSandbox());
    const before = await api.ok("GET", "/_sandbox/settings");
    const res = await api.post("/_sandbox/settings", { duplicate_deliveries: true, [name]: value });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ err_code: "INPUT_MALFORMED", errors: { [name]: [expect.any(String)] } });
    expect(await api.ok("GET", "/_sandbox/settings")).toEqual(before);
  });

  it("requires the signature like every other request", async () => {
    const api = new Api(await startSandbox());
    const res = await api.post("/_sandbox/clock/advance", { seconds: 1 }, { sign: false });
    expect(res.status).toBe(401);
    expect(res.body.err_code).toBe("AUTH_MISSING_HEADERS");
  });

  it("moves a bank account to FAILED with a chosen reason and emits the BANK FAILED event", async () => {
    const api = new Api(await startSandbox());
    const receiver = await startReceiver();
    const customer = await verifiedCustomer(api);
    const bank = await verifiedBank(api, customer.id);
    await api.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
    const moved = await api.ok("POST", `/_sandbox/banks/${bank.id}/transition`, {
      status: "FAILED",
      failure_reason: "BANK_RISK_CHECK_FAILED",
    });
    expect(moved.record).toMatchObject({ bank_account_status: "FAILED", failure_reason: "BANK_RISK_CHECK_FAILED" });
    expect(moved.event.body).toMatchObject({
      type: "BANK",
      id: bank.id,
      event: "FAILED",
      metadata: { failure_reason: "BANK_RISK_CHECK_FAILED" },
    });
    const invalid = await api.post(`/_sandbox/banks/${bank.id}/transition`, {
      status: "FAILED",
      failure_reason: "BECAUSE",
    });
    expect(invalid.body.err_code).toBe("INPUT_MALFORMED");
  });

  it("moves a payout to IN_REVIEW with a request for information and its link", async () => {
    const api = new Api(await startSandbox({ autoProgressMs: false }));
    const customer = await createCustomer(api);
    await api.ok("POST", `/_sandbox/customers/${customer.id}/transition`, { status: "VERIFIED" });
    const bank = await api.ok("POST", "/cms/api/v1/bank/create", {
      customer_id: customer.id,
      bank_account_type: "UPI",
      identifiers: { vpa: "x@ybl" },
    });
    await api.ok("POST", `/_sandbox/banks/${bank.id}/transition`, { status: "VERIFIED" });
    const quote = await api.ok(
      "POST",
      "/pos/api/v1/payout/quotation",
      payoutQuotationBody(customer.id, bank.id, { payment_method: "UPI" }),
    );
    const payout = await api.ok("POST", "/pos/api/v1/payout/initiate", {
      quotation_id: quote.id,
      client_reference_id: "rfi-1",
    });
    const moved = await api.ok("POST", `/_sandbox/payouts/${payout.id}/transition`, {
      status: "IN_REVIEW",
      reason: "Request for information",
      rfi_link: "https://rfi.example.com/abc",
    });
    expect(moved.event.body.metadata).toEqual({
      client_reference_id: "rfi-1",
      reason: "Request for information",
      rfi_link: "https://rfi.example.com/abc",
    });
    const success = await api.ok("POST", `/_sandbox/payouts/${payout.id}/transition`, { status: "SUCCESS" });
    expect(success.record.status).toBe("SUCCESS");
    expect(success.event.body.metadata).toMatchObject({ client_reference_id: "rfi-1", utr: expect.any(String) });
  });

  it("keeps records still while automatic progress is off and resumes them when it is switched on", async () => {
    const api = new Api(await startSandbox({ autoProgressMs: false }));
    const customer = await createCustomer(api);
    await api.ok("POST", "/cms/api/v1/kyc/add-kyc-data", (await import("./helpers.js")).kycBody(customer.id));
    await new Promise((r) => setTimeout(r, 30));
    expect((await api.ok("GET", `/cms/api/v1/customer/${customer.id}`)).status).toBe("UNVERIFIED");
    expect(await api.ok("POST", "/_sandbox/settings", { auto_progress_ms: 0 })).toMatchObject({ auto_progress_ms: 0 });
    // Polled, not slept: a step is due at once but runs when the process (or, on PostgreSQL, the queue) gets to it.
    const verified = await waitFor(async () => {
      const found = await api.ok("GET", `/cms/api/v1/customer/${customer.id}`);
      return found.status !== "UNVERIFIED" && found;
    }, "the resumed KYC step");
    expect(verified.status).toBe("VERIFIED");
  });

  it("shows the organization's webhook URL in the settings and unregisters it with webhook_url null", async () => {
    const api = new Api(await startSandbox());
    expect(await api.ok("GET", "/_sandbox/settings")).toMatchObject({ webhook_url: null });
    await api.ok("POST", "/org/api/v1/organizations/api-webhooks", {
      webhook_url: "https://hooks.example.com/exchange",
    });
    expect(await api.ok("GET", "/_sandbox/settings")).toMatchObject({
      webhook_url: "https://hooks.example.com/exchange",
    });
    expect((await api.as(ORG_B).ok("GET", "/_sandbox/settings")).webhook_url).toBeNull();
    expect((await api.post("/_sandbox/settings", { webhook_url: "https://elsewhere.example.com" })).body.err_code).toBe(
      "INPUT_MALFORMED",
    );
    expect(await api.ok("POST", "/_sandbox/settings", { webhook_url: null })).toMatchObject({ webhook_url: null });
    expect(await api.ok("GET", "/_sandbox/settings")).toMatchObject({ webhook_url: null });
  });

  it("refuses to move another organization's record or to a status the document does not allow", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api);
    expect(
      (await api.as(ORG_B).post(`/_sandbox/customers/${customer.id}/transition`, { status: "VERIFIED" })).body.err_code,
    ).toBe("INPUT_INVALID_PARAMETER");
    expect(
      (await api.post(`/_sandbox/customers/${customer.id}/transition`, { status: "SUSPENDED" })).body.err_code,
    ).toBe("INPUT_MALFORMED");
    expect((await api.post(`/_sandbox/customers/${customer.id}/transition`, {})).body.err_code).toBe(
      "REQ_FIELD_MISSING",
    );
  });

  it("shows only the caller's organization's events", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    await verifiedCustomer(api);
    await verifiedCustomer(api.as(ORG_B));
    expect((await api.ok("GET", "/_sandbox/events")).count).toBe(1);
    expect((await api.as(ORG_B).ok("GET", "/_sandbox/events")).count).toBe(1);
    expect(await sandbox.events()).toHaveLength(2);
  });
});

describe("a __proto__ member in a control-API body", () => {
  // Sent as text: an object literal's __proto__ would set a prototype, not send a member.
  it("is refused in a settings body like any other unknown member, and nothing changes", async () => {
    const api = new Api(await startSandbox());
    const before = await api.ok("GET", "/_sandbox/settings");
    const res = await api.post("/_sandbox/settings", undefined, {
      rawBody: '{"__proto__":{"quotation_ttl_seconds":1},"quotation_ttl_seconds":2}',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ err_code: "INPUT_MALFORMED" });
    expect(Object.keys(res.body.errors)).toEqual(["__proto__"]);
    expect(await api.ok("GET", "/_sandbox/settings")).toEqual(before);
  });

  it("is refused in a fault body like any other unknown member, and no rule is armed", async () => {
    const api = new Api(await startSandbox());
    const res = await api.post("/_sandbox/faults", undefined, {
      rawBody: '{"__proto__":{"times":1000000},"fault":"RESET","operation":"listCustomers"}',
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(["__proto__"]);
    expect((await api.ok("GET", "/_sandbox/faults")).results ?? []).toEqual([]);
  });
});
