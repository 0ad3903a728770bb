import { describe, expect, it } from "vitest";
import {
  Api,
  ORG_B,
  payoutQuotationBody,
  startReceiver,
  startSandbox,
  verifiedBank,
  verifiedCustomer,
  waitFor,
  createCustomer,
} from "./helpers.js";

const QUOTE = "/pos/api/v1/payout/quotation";
const INITIATE = "/pos/api/v1/payout/initiate";

async function setup(options: Parameters<typeof startSandbox>[0] = {}, customer: Record<string, unknown> = {}) {
  const sandbox = await startSandbox(options);
  const api = new Api(sandbox);
  const c = await verifiedCustomer(api, customer);
  const bank = await verifiedBank(api, c.id);
  return { sandbox, api, customer: c, bank };
}

describe("payout quotations", () => {
  it("fixes a fee-inclusive rate, a deposit address and an expiry_time", async () => {
    const { api, customer, bank, sandbox } = await setup();
    const quote = await api.ok("POST", QUOTE, payoutQuotationBody(customer.id, bank.id));
    expect(quote).toMatchObject({
      customer_id: customer.id,
      bank_id: bank.id,
      receiving_amount: "10000.00",
      asset: "usdt",
      fiat: "INR",
    });
    expect(Date.parse(quote.expiry_time) - Date.parse(quote.created_at)).toBe(300_000);
    expect(Number(quote.rate)).toBeCloseTo(Number(quote.receiving_amount) / Number(quote.sending_amount), 3);
    expect(quote.wallet_address).toMatch(/^T/);
    const fetched = await api.ok("GET", `/pos/api/v1/payout/quotation/${quote.id}`);
    expect(fetched).toEqual(quote);
    expect(Date.parse(quote.created_at)).toBeLessThanOrEqual((await sandbox.clock.now()).getTime());
  });

  it("answers the asset and the network as the request spelled them, matching them without case", async () => {
    const { api, customer, bank } = await setup();
    const upper = await api.ok(
      "POST",
      QUOTE,
      payoutQuotationBody(customer.id, bank.id, { asset: "USDT", network: "Tron" }),
    );
    expect(upper).toMatchObject({ asset: "USDT", network: "Tron" });
    expect(await api.ok("GET", `/pos/api/v1/payout/quotation/${upper.id}`)).toMatchObject({ asset: "USDT" });
    const lower = await api.ok("POST", QUOTE, payoutQuotationBody(customer.id, bank.id, { asset: "usdc" }));
    expect(lower).toMatchObject({ asset: "usdc", network: "tron" });
    const rate = await api.ok("GET", "/pos/api/v1/payout/fetch-rate", undefined, {
      query: { asset: "USDT", fiat: "INR" },
    });
    expect(rate).toMatchObject({ asset: "USDT", fiat: "INR" });
  });

  it("answers PAYOUT_AMOUNT_BELOW_MIN at 2,500 INR and accepts just above it", async () => {
    const { api, customer, bank } = await setup();
    const at = await api.post(QUOTE, payoutQuotationBody(customer.id, bank.id, { receiving_amount: "2500" }));
    expect(at.body).toMatchObject({
      err_code: "PAYOUT_AMOUNT_BELOW_MIN",
      message: "Entered amount is less than minimum transaction amount",
    });
    expect(
      (await api.post(QUOTE, payoutQuotationBody(customer.id, bank.id, { receiving_amount: "2500.01" }))).status,
    ).toBe(200);
  });

  it("answers PAYOUT_AMOUNT_ABOVE_MAX at 500,000 INR by IMPS, which NEFT allows", async () => {
    const { api, customer, bank } = await setup();
    const at = await api.post(QUOTE, payoutQuotationBody(customer.id, bank.id, { receiving_amount: "500000" }));
    expect(at.body).toMatchObject({
      err_code: "PAYOUT_AMOUNT_ABOVE_MAX",
      message: "Entered amount exceeds maximum transaction amount",
    });
    expect(
      (await api.post(QUOTE, payoutQuotationBody(customer.id, bank.id, { receiving_amount: "499999.99" }))).status,
    ).toBe(200);
    expect(
      (
        await api.post(
          QUOTE,
          payoutQuotationBody(customer.id, bank.id, { receiving_amount: "500000", payment_method: "NEFT" }),
        )
      ).status,
    ).toBe(200);
  });

  it("applies the bounds to the fiat amount a sending_amount buys", async () => {
    const { api, customer, bank } = await setup();
    const small = await api.post(
      QUOTE,
      payoutQuotationBody(customer.id, bank.id, { receiving_amount: undefined, sending_amount: "10" }),
    );
    expect(small.body.err_code).toBe("PAYOUT_AMOUNT_BELOW_MIN");
    const ok = await api.ok(
      "POST",
      QUOTE,
      payoutQuotationBody(customer.id, bank.id, { receiving_amount: undefined, sending_amount: "100" }),
    );
    expect(ok.sending_amount).toBe("100.000000");
  });

  it("answers PAYOUT_AMOUNT_ZERO_OR_NEGATIVE for zero and negative amounts", async () => {
    const { api, customer, bank } = await setup();
    for (const amount of ["0", "-5"]) {
      const res = await api.post(QUOTE, payoutQuotationBody(customer.id, bank.id, { receiving_amount: amount }));
      expect(res.body.err_code).toBe("PAYOUT_AMOUNT_ZERO_OR_NEGATIVE");
    }
  });

  it("requires exactly one of sending_amount and receiving_amount", async () => {
    const { api, customer, bank } = await setup();
    const both = await api.post(QUOTE, payoutQuotationBody(customer.id, bank.id, { sending_amount: "100" }));
    expect(both.body.err_code).toBe("INPUT_MALFORMED");
    const neither = await api.post(QUOTE, payoutQuotationBody(customer.id, bank.id, { receiving_amount: undefined }));
    expect(neither.body.err_code).toBe("REQ_FIELD_MISSING");
    expect(Object.keys(neither.body.errors)).toEqual(["sending_amount", "receiving_amount"]);
  });

  it("answers USR_UNVERIFIED for an unverified customer and for another organization's customer", async () => {
    const { api, customer, bank } = await setup();
    const unverified = await createCustomer(api);
    expect((await api.post(QUOTE, payoutQuotationBody(unverified.id, bank.id))).body).toMatchObject({
      err_code: "USR_UNVERIFIED",
      message: "Customer is unverified",
    });
    expect((await api.as(ORG_B).post(QUOTE, payoutQuotationBody(customer.id, bank.id))).body.err_code).toBe(
      "USR_UNVERIFIED",
    );
  });

  it("answers BANK_ACCOUNT_UNVERIFIED while the account is not verified, and BANK_NOT_FOUND for another customer's", async () => {
    const api = new Api(await startSandbox({ autoProgressMs: false }));
    // With automatic progress off nothing moves on its own: verify the customer through the control API.
    const customer = await createCustomer(api);
    await api.ok("POST", `/_sandbox/customers/${customer.id}/transition`, { status: "VERIFIED" });
    const bank = await api.ok("POST", "/cms/api/v1/bank/create", {
      customer_id: customer.id,
      bank_account_type: "ACCOUNT_DETAILS",
      identifiers: { account_number: "777", ifsc: "HDFC0001234" },
    });
    const processing = await api.post(QUOTE, payoutQuotationBody(customer.id, bank.id));
    expect(processing.body).toMatchObject({
      err_code: "BANK_ACCOUNT_UNVERIFIED",
      message: "Bank account is unverified",
    });
    const other = await createCustomer(api);
    await api.ok("POST", `/_sandbox/customers/${other.id}/transition`, { status: "VERIFIED" });
    expect((await api.post(QUOTE, payoutQuotationBody(other.id, bank.id))).body.err_code).toBe("BANK_NOT_FOUND");
  });

  it("answers RISK_AML_FAILED for a customer whose name contains AML_FAIL", async () => {
    const { api, customer, bank } = await setup({}, { full_name: "Sanctioned AML_FAIL Person" });
    const res = await api.post(QUOTE, payoutQuotationBody(customer.id, bank.id));
    expect(res.body).toMatchObject({ err_code: "RISK_AML_FAILED", message: "AML SCREENING FAILED" });
  });

  it("answers RISK_EDD_REQUIRED for a suspicious activity report until a VERIFIED EDD exists", async () => {
    const { api, customer, bank } = await setup();
    const risky = payoutQuotationBody(customer.id, bank.id, {
      risk_parameters: { ip_address: "203.0.113.24", suspicious_activity_report: true },
    });
    expect((await api.post(QUOTE, risky)).body.err_code).toBe("RISK_EDD_REQUIRED");
    const edd = await api.ok("POST", "/pos/api/v1/payout/edd/save", {
      customer_id: customer.id,
      source_of_funds: "salary",
    });
    expect(edd.status).toBe("PROCESSING");
    await waitFor(
      async () =>
        (await api.ok("GET", "/pos/api/v1/payout/edd/list", undefined, { query: { customer_id: customer.id } }))[0]
          ?.status === "VERIFIED",
      "EDD VERIFIED",
    );
    expect((await api.post(QUOTE, risky)).status).toBe(200);
  });

  it("answers RISK_IP_CHECK_FAILED for a private IP and REQ_FIELD_MISSING without the required ip_address", async () => {
    const { api, customer, bank } = await setup();
    const privateIp = await api.post(
      QUOTE,
      payoutQuotationBody(customer.id, bank.id, { risk_parameters: { ip_address: "192.168.1.10" } }),
    );
    expect(privateIp.body.err_code).toBe("RISK_IP_CHECK_FAILED");
    const none = await api.post(QUOTE, payoutQuotationBody(customer.id, bank.id, { risk_parameters: {} }));
    expect(none.body).toMatchObject({
      err_code: "REQ_FIELD_MISSING",
      errors: { "risk_parameters.ip_address": ["This field is required."] },
    });
  });

  it("answers RISK_DAILY_LIMIT_EXCEEDED past the daily limit and for the DAILY_LIMIT device magic", async () => {
    const { api, customer, bank } = await setup();
    const magic = await api.post(
      QUOTE,
      payoutQuotationBody(customer.id, bank.id, {
        risk_parameters: { ip_address: "203.0.113.24", device_id: "DAILY_LIMIT" },
      }),
    );
    expect(magic.body).toMatchObject({
      err_code: "RISK_DAILY_LIMIT_EXCEEDED",
      message: "Daily offramp limit exhausted",
    });
    // 1,000,000 INR a day: three orders of 400,000 cannot all pass.
    for (let i = 0; i < 2; i++) {
      const q = await api.ok("POST", QUOTE, payoutQuotationBody(customer.id, bank.id, { receiving_amount: "400000" }));
      await api.ok("POST", INITIATE, { quotation_id: q.id });
    }
    expect(
      (await api.post(QUOTE, payoutQuotationBody(customer.id, bank.id, { receiving_amount: "400000" }))).body.err_code,
    ).toBe("RISK_DAILY_LIMIT_EXCEEDED");
    const limits = await api.ok("GET", `/pos/api/v1/payout/limits/${customer.id}`);
    expect(limits).toMatchObject({ daily_limit: "1000000.00", daily_used: "800000.00", daily_remaining: "200000.00" });
  });

  // The document lists RISK_DAILY_LIMIT_EXCEEDED for the quotation only (docs/gaps.md, "Daily limit at initiate").
  it("checks the daily limit at quotation only: three quotations made first initiate together past it", async () => {
    const { api, customer, bank } = await setup();
    const quotations = [];
    for (let i = 0; i < 3; i++)
      quotations.push(
        await api.ok("POST", QUOTE, payoutQuotationBody(customer.id, bank.id, { receiving_amount: "400000" })),
      );
    for (const q of quotations)
      expect((await api.ok("POST", INITIATE, { quotation_id: q.id })).id).toEqual(expect.any(String));
    const limits = await api.ok("GET", `/pos/api/v1/payout/limits/${customer.id}`);
    expect(limits).toMatchObject({ daily_limit: "1000000.00", daily_used: "1200000.00" });
    const next = await api.post(QUOTE, payoutQuotationBody(customer.id, bank.id, { receiving_amount: "2600" }));
    expect(next.body.err_code).toBe("RISK_DAILY_LIMIT_EXCEEDED");
  });

  it("answers 503 SYS_SERVICE_UNAVAILABLE for the SERVICE_UNAVAILABLE device magic", async () => {
    const { api, customer, bank } = await setup();
    const res = await api.post(
      QUOTE,
      payoutQuotationBody(customer.id, bank.id, {
        risk_parameters: { ip_address: "203.0.113.24", device_id: "SERVICE_UNAVAILABLE" },
      }),
    );
    expect(res.status).toBe(503);
    expect(res.body.err_code).toBe("SYS_SERVICE_UNAVAILABLE");
  });
});

describe("payout orders", () => {
  it("initiates a payout as PROCESSING, moves it to SUCCESS and sends only the SUCCESS event", async () => {
    const { api, customer, bank, sandbox } = await setup();
    const receiver = await startReceiver();
    await api.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
    const quote = await api.ok("POST", QUOTE, payoutQuotationBody(customer.id, bank.id));
    const payout = await api.ok("POST", INITIATE, { quotation_id: quote.id, client_reference_id: "po-1" });
    expect(payout).toMatchObject({
      status: "PROCESSING",
      quotation_id: quote.id,
      client_reference_id: "po-1",
      wallet_address: quote.wallet_address,
    });
    const event = await waitFor(() => receiver.deliveries.find((d) => d.body.type === "PAYOUT"), "PAYOUT event");
    expect(event.body).toMatchObject({
      id: payout.id,
      event: "SUCCESS",
      metadata: { client_reference_id: "po-1", utr: expect.stringMatching(/^\d{12}$/) },
    });
    const done = await api.ok("GET", `/pos/api/v1/payout/${payout.id}`);
    expect(done).toMatchObject({ status: "SUCCESS", utr: event.body.metadata.utr });
    await sandbox.deliveriesSettled();
    expect((await sandbox.events()).filter((e) => e.body.type === "PAYOUT").map((e) => e.body.event)).toEqual([
      "SUCCESS",
    ]);
  });

  it.each([
    ["4001", "FAILED", { failure_reason: "Payout failed" }],
    ["4002", "IN_REVIEW", { reason: "Under compliance review" }],
    ["4003", "IN_REVIEW", { reason: "Request for information", rfi_link: expect.stringMatching(/^https:\/\//) }],
    ["4004", "REFUNDED", { refund_reason: expect.any(String) }],
  ])("moves a payout quoted at %s INR to %s with the catalog's metadata", async (amount, status, metadata) => {
    const { api, customer, bank } = await setup();
    const receiver = await startReceiver();
    await api.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
    const quote = await api.ok("POST", QUOTE, payoutQuotationBody(customer.id, bank.id, { receiving_amount: amount }));
    const payout = await api.ok("POST", INITIATE, { quotation_id: quote.id });
    const event = await waitFor(() => receiver.deliveries.find((d) => d.body.type === "PAYOUT"), "PAYOUT event");
    expect(event.body).toMatchObject({
      id: payout.id,
      event: status,
      metadata: { client_reference_id: null, ...metadata },
    });
    expect((await api.ok("GET", `/pos/api/v1/payout/${payout.id}`)).status).toBe(status);
  });

  it("answers PAYOUT_QUOTATION_EXPIRED once the sandbox clock passes expiry_time", async () => {
    const { api, customer, bank, sandbox } = await setup();
    const quote = await api.ok("POST", QUOTE, payoutQuotationBody(customer.id, bank.id));
    await api.ok("POST", "/_sandbox/clock/advance", { seconds: 301 });
    const res = await api.post(INITIATE, { quotation_id: quote.id });
    expect(res.body).toMatchObject({ err_code: "PAYOUT_QUOTATION_EXPIRED" });
    expect((await sandbox.clock.now()).getTime()).toBeGreaterThan(Date.parse(quote.expiry_time));
  });

  it("accepts a quotation until its expiry_time", async () => {
    const { api, customer, bank, sandbox } = await setup();
    const quote = await api.ok("POST", QUOTE, payoutQuotationBody(customer.id, bank.id));
    await sandbox.clock.advance(290);
    expect((await api.post(INITIATE, { quotation_id: quote.id })).status).toBe(200);
  });

  it("answers PAYOUT_QUOTATION_LINKED for a quotation that already backs an order", async () => {
    const { api, customer, bank } = await setup();
    const quote = await api.ok("POST", QUOTE, payoutQuotationBody(customer.id, bank.id));
    await api.ok("POST", INITIATE, { quotation_id: quote.id, client_reference_id: "a" });
    const res = await api.post(INITIATE, { quotation_id: quote.id, client_reference_id: "b" });
    expect(res.body.err_code).toBe("PAYOUT_QUOTATION_LINKED");
  });

  it("answers PAYOUT_DUPLICATE_CLIENT_REF_ID for a client_reference_id already used", async () => {
    const { api, customer, bank } = await setup();
    const q1 = await api.ok("POST", QUOTE, payoutQuotationBody(customer.id, bank.id));
    const q2 = await api.ok("POST", QUOTE, payoutQuotationBody(customer.id, bank.id));
    await api.ok("POST", INITIATE, { quotation_id: q1.id, client_reference_id: "dup" });
    expect((await api.post(INITIATE, { quotation_id: q2.id, client_reference_id: "dup" })).body.err_code).toBe(
      "PAYOUT_DUPLICATE_CLIENT_REF_ID",
    );
  });

  it("answers PAYOUT_QUOTATION_NOT_FOUND for an unknown or another organization's quotation", async () => {
    const { api, customer, bank } = await setup();
    const quote = await api.ok("POST", QUOTE, payoutQuotationBody(customer.id, bank.id));
    expect((await api.as(ORG_B).post(INITIATE, { quotation_id: quote.id })).body.err_code).toBe(
      "PAYOUT_QUOTATION_NOT_FOUND",
    );
    expect((await api.post(INITIATE, { quotation_id: "00000000-0000-4000-8000-000000000000" })).body.err_code).toBe(
      "PAYOUT_QUOTATION_NOT_FOUND",
    );
    expect((await api.post(INITIATE, {})).body).toMatchObject({
      err_code: "REQ_FIELD_MISSING",
      errors: { quotation_id: ["This field is required."] },
    });
  });

  it("answers PAYOUT_INVALID_PAYOUT_ID for a malformed or unknown payout ID", async () => {
    const api = new Api(await startSandbox());
    expect((await api.get("/pos/api/v1/payout/not-a-uuid")).body.err_code).toBe("PAYOUT_INVALID_PAYOUT_ID");
    expect((await api.get("/pos/api/v1/payout/00000000-0000-4000-8000-000000000000")).body.err_code).toBe(
      "PAYOUT_INVALID_PAYOUT_ID",
    );
  });

  it("lists payout history with pagination, filters and the date-range rule", async () => {
    const { api, customer, bank, sandbox } = await setup();
    for (let i = 0; i < 12; i++) {
      const q = await api.ok(
        "POST",
        QUOTE,
        payoutQuotationBody(customer.id, bank.id, { receiving_amount: String(5000 + i) }),
      );
      await api.ok("POST", INITIATE, { quotation_id: q.id, client_reference_id: `h-${i}` });
    }
    for (const path of ["/pos/api/v1/prefunded/payout/history", "/pos/api/v1/payout/history"]) {
      const page1 = await api.ok("GET", path, undefined, { query: { per_page: 10 } });
      expect(page1).toMatchObject({ count: 12, previous: null, next: `${sandbox.url}${path}?per_page=10&page=2` });
      expect(page1.results).toHaveLength(10);
      expect(page1.results[0].client_reference_id).toBe("h-11");
      const page2 = await api.ok("GET", path, undefined, { query: { per_page: 10, page: 2 } });
      expect(page2.results.map((r: { client_reference_id: string }) => r.client_reference_id)).toEqual(["h-1", "h-0"]);
      const lone = await api.get(path, { query: { start_date: "2026-01-01" } });
      expect(lone.status).toBe(400);
      expect(lone.body).toMatchObject({ err_code: "REQ_FIELD_MISSING", errors: { date_range: [expect.any(String)] } });
      const loneEnd = await api.get(path, { query: { end_date: "2026-01-01" } });
      expect(loneEnd.body.err_code).toBe("REQ_FIELD_MISSING");
      const today = (await sandbox.clock.now()).toISOString().slice(0, 10);
      expect((await api.ok("GET", path, undefined, { query: { start_date: today, end_date: today } })).count).toBe(12);
      expect(
        (await api.ok("GET", path, undefined, { query: { start_date: "2020-01-01", end_date: "2020-12-31" } })).count,
      ).toBe(0);
      expect((await api.ok("GET", path, undefined, { query: { status: "FAILED" } })).count).toBe(0);
      expect(
        (await api.ok("GET", path, undefined, { query: { ordering: "created_at" } })).results[0].client_reference_id,
      ).toBe("h-0");
    }
  });

  it("quotes a remittance payout with remitter_id and answers its errors under the error key", async () => {
    const { api, customer, bank } = await setup();
    const remitter = await api.ok("POST", "/cms/api/v1/kyc/remitter/create", { full_name: "Sender Ltd" });
    const body = { ...payoutQuotationBody(customer.id, bank.id), remitter_id: remitter.id, is_self_transfer: false };
    const quote = await api.ok("POST", "/pos/api/v1/remittance-payout/quotation", body);
    expect(quote.remitter_id).toBe(remitter.id);
    const missing = await api.post("/pos/api/v1/remittance-payout/quotation", { ...body, remitter_id: undefined });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toEqual({ remitter_id: ["This field is required."] });
    expect(missing.body).not.toHaveProperty("errors");
    const unverified = await createCustomer(api);
    const res = await api.post("/pos/api/v1/remittance-payout/quotation", { ...body, customer_id: unverified.id });
    expect(res.body).toMatchObject({
      status: false,
      message: "Customer is unverified",
      error: { customer_id: ["Customer is unverified"] },
    });
    const payout = await api.ok("POST", INITIATE, { quotation_id: quote.id });
    expect(payout.customer.sender.id).toBe(remitter.id);
  });

  it("requires exactly one amount on a remittance quotation, as on a payout quotation, under the error key", async () => {
    const { api, customer, bank } = await setup();
    const remitter = await api.ok("POST", "/cms/api/v1/kyc/remitter/create", { full_name: "Sender Ltd" });
    const body = (amounts: Record<string, string | undefined>) => ({
      ...payoutQuotationBody(customer.id, bank.id, amounts),
      remitter_id: remitter.id,
    });
    const path = "/pos/api/v1/remittance-payout/quotation";
    const both = await api.post(path, body({ sending_amount: "100" }));
    expect(both.status).toBe(400);
    expect(both.body.message).toBe(
      (await api.post(QUOTE, payoutQuotationBody(customer.id, bank.id, { sending_amount: "100" }))).body.message,
    );
    const neither = await api.post(path, body({ receiving_amount: undefined }));
    expect(neither.status).toBe(400);
    expect(Object.keys(neither.body.error)).toEqual(["sending_amount", "receiving_amount"]);
  });

  it("answers the remittance quotation's 500 in its own body (error, not errors) and its 429 in the standard one", async () => {
    const api = new Api(await startSandbox());
    const path = "/pos/api/v1/remittance-payout/quotation";
    await api.ok("POST", "/_sandbox/faults", { operation: "createRemittancePayoutQuotation", fault: "HTTP_500" });
    // Api.post checks each answer against the spec's schema for its status.
    const internal = await api.post(path, {});
    expect(internal.status).toBe(500);
    expect(internal.body).toMatchObject({ status: false, message: "Internal Server Error", error: {} });
    expect(internal.body).not.toHaveProperty("errors");
    await api.ok("POST", "/_sandbox/faults", { operation: "createRemittancePayoutQuotation", fault: "HTTP_429" });
    const throttled = await api.post(path, {});
    expect(throttled.status).toBe(429);
    expect(throttled.body).toMatchObject({ err_code: "TOO_MANY_REQUESTS", errors: {} });
    expect(throttled.body).not.toHaveProperty("error");
  });

  it("serves the prefunded configuration with lowercase fiat keys and required_risk_parameters", async () => {
    const api = new Api(await startSandbox());
    const config = await api.ok("GET", "/pos/api/v1/prefunded/payout/configuration");
    expect(config.inr.required_risk_parameters).toEqual(["ip_address"]);
    expect(config.inr.limits.usdt.tron.IMPS).toHaveProperty("max");
    expect(await api.ok("GET", "/pos/api/v1/payout/configuration")).toHaveProperty("inr");
  });

  it("fetches an indicative rate, requiring asset and fiat", async () => {
    const api = new Api(await startSandbox());
    expect(
      await api.ok("GET", "/pos/api/v1/payout/fetch-rate", undefined, { query: { asset: "usdt", fiat: "inr" } }),
    ).toMatchObject({ rate: "88.0000" });
    const missing = await api.get("/pos/api/v1/payout/fetch-rate", { query: { asset: "usdt" } });
    expect(missing.body).toMatchObject({
      err_code: "REQ_FIELD_MISSING",
      errors: { fiat: ["This field is required."] },
    });
  });
});
