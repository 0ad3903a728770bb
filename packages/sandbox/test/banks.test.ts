import { describe, expect, it } from "vitest";
import {
  Api,
  createCustomer,
  ORG_B,
  startReceiver,
  startSandbox,
  verifiedBank,
  verifiedCustomer,
  waitFor,
} from "./helpers.js";

const CREATE = "/cms/api/v1/bank/create";

describe("bank accounts", () => {
  it("answers USR_UNVERIFIED for a customer that is not VERIFIED", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api);
    const res = await api.post(CREATE, {
      customer_id: customer.id,
      bank_account_type: "UPI",
      identifiers: { vpa: "asha@okhdfc" },
    });
    expect(res.body).toMatchObject({ err_code: "USR_UNVERIFIED", message: "Customer is unverified" });
  });

  it("adds an account as PROCESSING and verifies it with a BANK VERIFIED event", async () => {
    const api = new Api(await startSandbox());
    const receiver = await startReceiver();
    const customer = await verifiedCustomer(api);
    await api.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
    const created = await api.ok("POST", CREATE, {
      customer_id: customer.id,
      bank_account_type: "ACCOUNT_DETAILS",
      identifiers: { account_number: "50100123456789", ifsc: "HDFC0001234" },
    });
    expect(created).toMatchObject({
      bank_account_status: "PROCESSING",
      bank_name: "HDFC Bank",
      country: "IND",
      beneficiary_name: "Asha Verma",
    });
    const event = await waitFor(() => receiver.deliveries.find((d) => d.body.type === "BANK"), "BANK event");
    expect(event.body).toMatchObject({ type: "BANK", id: created.id, event: "VERIFIED", metadata: {} });
    expect((await api.ok("GET", `/cms/api/v1/bank/${customer.id}/${created.id}`)).bank_account_status).toBe("VERIFIED");
  });

  it.each([
    ["FAIL_BANK", "PENNY_DROP_FAILED"],
    ["NAME_MISMATCH", "NAME_MISMATCH"],
    ["ACCOUNT_TYPE_NRE", "ACCOUNT_TYPE_NRE"],
    ["BANK_RISK", "BANK_RISK_CHECK_FAILED"],
  ])("fails verification for a VPA containing %s, with failure_reason %s", async (magic, reason) => {
    const api = new Api(await startSandbox());
    const receiver = await startReceiver();
    const customer = await verifiedCustomer(api);
    await api.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
    const bank = await verifiedBank(api, customer.id, { vpa: `${magic.toLowerCase()}@okhdfc` }, "UPI");
    expect(bank).toMatchObject({ bank_account_status: "FAILED", failure_reason: reason });
    const event = await waitFor(() => receiver.deliveries.find((d) => d.body.type === "BANK"), "BANK event");
    expect(event.body).toMatchObject({ event: "FAILED", metadata: { failure_reason: reason } });
  });

  it("puts a MANUAL_REVIEW account in manual review without an event", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    const customer = await verifiedCustomer(api);
    const bank = await verifiedBank(api, customer.id, { account_number: "MANUAL_REVIEW1", ifsc: "ICIC0001234" });
    expect(bank.bank_account_status).toBe("MANUAL_REVIEW");
    expect((await sandbox.events()).filter((e) => e.body.type === "BANK")).toHaveLength(0);
  });

  it("allows 3 active accounts per rail, then answers BANK_LIMIT_REACHED", async () => {
    const api = new Api(await startSandbox());
    const customer = await verifiedCustomer(api);
    for (let i = 0; i < 3; i++) {
      await api.ok("POST", CREATE, {
        customer_id: customer.id,
        bank_account_type: "UPI",
        identifiers: { vpa: `asha${i}@okhdfc` },
      });
    }
    const fourth = await api.post(CREATE, {
      customer_id: customer.id,
      bank_account_type: "UPI",
      identifiers: { vpa: "asha9@okhdfc" },
    });
    expect(fourth.body).toMatchObject({
      err_code: "BANK_LIMIT_REACHED",
      errors: { bank_account_type: ["3 accounts already added"] },
    });
    // The other rail has its own 3.
    await api.ok("POST", CREATE, {
      customer_id: customer.id,
      bank_account_type: "ACCOUNT_DETAILS",
      identifiers: { account_number: "1234567890", ifsc: "SBIN0001234" },
    });
  });

  it("does not count FAILED accounts towards the limit", async () => {
    const api = new Api(await startSandbox());
    const customer = await verifiedCustomer(api);
    for (let i = 0; i < 3; i++) await verifiedBank(api, customer.id, { vpa: `fail_bank${i}@okhdfc` }, "UPI");
    await api.ok("POST", CREATE, {
      customer_id: customer.id,
      bank_account_type: "UPI",
      identifiers: { vpa: "good@okhdfc" },
    });
  });

  it("answers BANK_DUPLICATE_ACCOUNT when another customer already uses the UPI ID", async () => {
    const api = new Api(await startSandbox());
    const first = await verifiedCustomer(api);
    const second = await verifiedCustomer(api);
    await api.ok("POST", CREATE, {
      customer_id: first.id,
      bank_account_type: "UPI",
      identifiers: { vpa: "shared@okicici" },
    });
    const res = await api.post(CREATE, {
      customer_id: second.id,
      bank_account_type: "UPI",
      identifiers: { vpa: "SHARED@okicici" },
    });
    expect(res.body.err_code).toBe("BANK_DUPLICATE_ACCOUNT");
  });

  it("answers REQ_FIELD_MISSING naming the missing identifier", async () => {
    const api = new Api(await startSandbox());
    const customer = await verifiedCustomer(api);
    const res = await api.post(CREATE, {
      customer_id: customer.id,
      bank_account_type: "ACCOUNT_DETAILS",
      identifiers: { account_number: "123456789" },
    });
    expect(res.body).toMatchObject({
      err_code: "REQ_FIELD_MISSING",
      errors: { "identifiers.ifsc": ["This field is required."] },
    });
  });

  it("lists accounts with pagination and absolute next/previous URLs built from the Host", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    const customer = await verifiedCustomer(api);
    for (let i = 0; i < 3; i++)
      await api.ok("POST", CREATE, {
        customer_id: customer.id,
        bank_account_type: "UPI",
        identifiers: { vpa: `p${i}@ybl` },
      });
    for (let i = 0; i < 3; i++)
      await api.ok("POST", CREATE, {
        customer_id: customer.id,
        bank_account_type: "ACCOUNT_DETAILS",
        identifiers: { account_number: `99900${i}`, ifsc: "UTIB0000001" },
      });
    const path = `/cms/api/v1/bank/list/${customer.id}`;
    const all = await api.ok("GET", path);
    expect(all).toMatchObject({ count: 6, next: null, previous: null });
    const first = await api.ok("GET", path, undefined, { query: { page: 1, per_page: 10 } });
    expect(first.results).toHaveLength(6);
    const page2 = await api.ok("GET", path, undefined, { query: { page: 2, per_page: 10 } });
    expect(page2.results).toHaveLength(0);
    expect(page2.previous).toBe(`${sandbox.url}${path}?page=1&per_page=10`);
    const bad = await api.get(path, { query: { per_page: 5 } });
    expect(bad.status).toBe(400);
  });

  it("builds next and previous from the request's Host header", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    const customer = await verifiedCustomer(api);
    for (let i = 0; i < 12; i++)
      await api.ok("POST", "/cms/api/v1/customer/wallet/create", {
        customer_id: customer.id,
        wallet_address: `0x${String(i).padStart(40, "0")}`,
        network: "Polygon",
        label: `w${i}`,
      });
    const path = `/cms/api/v1/customer/wallet/list/${customer.id}`;
    const page1 = await api.ok("GET", path, undefined, {
      query: { per_page: 10 },
      headers: { Host: "sandbox.test:9999" },
    });
    expect(page1).toMatchObject({
      count: 12,
      previous: null,
      next: `http://sandbox.test:9999${path}?per_page=10&page=2`,
    });
    const page2 = await api.ok("GET", path, undefined, { query: { per_page: 10, page: 2 } });
    expect(page2.results).toHaveLength(2);
    expect(page2.next).toBeNull();
    expect(page2.previous).toBe(`${sandbox.url}${path}?per_page=10&page=1`);
  });

  it("answers BANK_NOT_FOUND for another customer's account, and deletes an account", async () => {
    const api = new Api(await startSandbox());
    const a = await verifiedCustomer(api);
    const b = await verifiedCustomer(api);
    const bank = await api.ok("POST", CREATE, {
      customer_id: a.id,
      bank_account_type: "UPI",
      identifiers: { vpa: "a@oksbi" },
    });
    const wrong = await api.get(`/cms/api/v1/bank/${b.id}/${bank.id}`);
    expect(wrong.body).toMatchObject({ err_code: "BANK_NOT_FOUND", message: "Bank not found or access denied" });
    const otherOrg = await api.as(ORG_B).get(`/cms/api/v1/bank/${a.id}/${bank.id}`);
    expect(otherOrg.body.err_code).toBe("AUTH_ORG_MISMATCH");
    const deleted = await api.ok("DELETE", `/cms/api/v1/bank/${a.id}/${bank.id}/delete`);
    expect(deleted.id).toBe(bank.id);
    expect((await api.get(`/cms/api/v1/bank/${a.id}/${bank.id}`)).body.err_code).toBe("BANK_NOT_FOUND");
  });

  it("links a USA account through the bank link flow: PROCESSING, then VERIFIED, with no BANK event", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    const receiver = await startReceiver();
    const customer = await verifiedCustomer(api, {
      alpha_3_country_code: "USA",
      dob: "1990-01-01",
      full_name: "John Doe",
    });
    await api.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
    // Progress paused while the PROCESSING state is observed, then resumed: no race with a timer.
    await api.ok("POST", "/_sandbox/settings", { auto_progress_ms: false });
    const link = await api.ok("POST", "/cms/api/v1/bank/generate-link", { customer_id: customer.id });
    expect(link.link_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/_sandbox\/bank-link\//);
    const listed = await api.ok("GET", `/cms/api/v1/bank/list/${customer.id}`);
    expect(listed.accounts).toHaveLength(1);
    expect(listed.accounts[0].bank_account_status).toBe("PROCESSING");
    await api.ok("POST", "/_sandbox/settings", { auto_progress_ms: 0 });
    await waitFor(
      async () =>
        (await api.ok("GET", `/cms/api/v1/bank/list/${customer.id}`)).accounts[0].bank_account_status === "VERIFIED",
      "VERIFIED",
    );
    await sandbox.deliveriesSettled();
    await new Promise((r) => setTimeout(r, 50));
    expect(receiver.deliveries.filter((d) => d.body.type === "BANK")).toHaveLength(0);
    expect((await sandbox.events()).filter((e) => e.body.type === "BANK")).toHaveLength(0);
  });

  it("answers UNKNOWN_ERROR with field errors when the bank link is asked for a customer outside the USA", async () => {
    const api = new Api(await startSandbox());
    const customer = await verifiedCustomer(api);
    const res = await api.post("/cms/api/v1/bank/generate-link", { customer_id: customer.id });
    expect(res.body).toMatchObject({ err_code: "UNKNOWN_ERROR", errors: { customer_id: [expect.any(String)] } });
  });

  it("answers UNKNOWN_ERROR when the bank link is asked for a customer that is not VERIFIED", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api, { alpha_3_country_code: "USA", dob: "1990-01-01" });
    const res = await api.post("/cms/api/v1/bank/generate-link", { customer_id: customer.id });
    expect(res.body).toMatchObject({
      err_code: "UNKNOWN_ERROR",
      message: "Customer is unverified",
      errors: { customer_id: ["Customer is unverified"] },
    });
  });

  it("adds a payout bank account and requires the method's identifiers (PIX needs br_cpf)", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api, { alpha_3_country_code: "BRA" });
    const missing = await api.post("/cms/api/v1/bank/payout/create", {
      customer_id: customer.id,
      bank_account_type: "PIX",
      identifiers: {},
    });
    expect(missing.body).toMatchObject({
      err_code: "UNKNOWN_ERROR",
      errors: { "identifiers.br_cpf": ["This field is required."] },
    });
    const defaulted = await api.post("/cms/api/v1/bank/payout/create", { customer_id: customer.id });
    expect(defaulted.body.errors).toHaveProperty(["identifiers.br_cpf"]);
    const bank = await api.ok("POST", "/cms/api/v1/bank/payout/create", {
      customer_id: customer.id,
      identifiers: { br_cpf: "123.456.789-09" },
    });
    expect(bank).toMatchObject({ bank_account_type: "PIX", bank_account_status: "PROCESSING" });
  });

  it("fetches, lists and deletes a SEPA payout bank account as the bank account record the spec declares", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api, { alpha_3_country_code: "DEU" });
    const identifiers = {
      account_holder_name: "Priya Nair",
      account_number: "DE89370400440532013000",
      swift_code: "COBADEFFXXX",
    };
    const created = await api.ok("POST", "/cms/api/v1/bank/payout/create", {
      customer_id: customer.id,
      bank_account_type: "SEPA",
      identifiers,
    });
    const path = `/cms/api/v1/bank/${customer.id}/${created.id}`;
    // Api.ok checks every answer against the operation's 200 schema (BankAccountRecord).
    expect(await api.ok("GET", path)).toMatchObject({ id: created.id, bank_account_type: "SEPA", identifiers });
    const list = await api.ok("GET", `/cms/api/v1/bank/list/${customer.id}`);
    expect(list.results.map((b: { id: string }) => b.id)).toEqual([created.id]);
    expect(await api.ok("DELETE", `${path}/delete`)).toMatchObject({ id: created.id, bank_account_type: "SEPA" });
    expect((await api.get(path)).body.err_code).toBe("BANK_NOT_FOUND");
  });
});
