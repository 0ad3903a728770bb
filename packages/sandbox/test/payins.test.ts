import { describe, expect, it } from "vitest";
import { Api, ORG_B, startReceiver, startSandbox, verifiedBank, verifiedCustomer, waitFor } from "./helpers.js";

const QUOTE = "/pis/api/v1/payin/quotation";
const INITIATE = "/pis/api/v1/payin/initiate";
let utrSeq = 100000000000;
const nextUtr = () => String(utrSeq++);

async function setup(options: Parameters<typeof startSandbox>[0] = {}) {
  const sandbox = await startSandbox(options);
  const api = new Api(sandbox);
  const customer = await verifiedCustomer(api);
  const bank = await verifiedBank(api, customer.id);
  const quoteBody = (overrides: Record<string, unknown> = {}) => ({
    customer_id: customer.id,
    bank_id: bank.id,
    asset: "usdt",
    fiat: "INR",
    network: "polygon",
    payment_method: "IMPS",
    wallet_address: "0x1111111111111111111111111111111111111111",
    sending_amount: "10000",
    risk_parameters: { ip_address: "203.0.113.24" },
    ...overrides,
  });
  return { sandbox, api, customer, bank, quoteBody };
}

describe("payins", () => {
  it("requires exactly one of sending_amount and receiving_amount in a payin quotation, as the spec's oneOf says", async () => {
    const { api, quoteBody } = await setup();
    const both = await api.post(QUOTE, quoteBody({ receiving_amount: "100" }));
    expect(both.body.err_code).toBe("INPUT_MALFORMED");
    const neither = await api.post(QUOTE, quoteBody({ sending_amount: undefined }));
    expect(neither.body.err_code).toBe("REQ_FIELD_MISSING");
    expect(Object.keys(neither.body.errors)).toEqual(["sending_amount", "receiving_amount"]);
  });

  it("quotes a payin and runs the order PROCESSING to SUCCESS with the PAYIN SUCCESS event", async () => {
    const { api, quoteBody } = await setup();
    const receiver = await startReceiver();
    await api.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
    const quote = await api.ok("POST", QUOTE, quoteBody());
    expect(quote).toMatchObject({ sending_amount: "10000.00", fiat: "INR", payment_method: "IMPS" });
    expect(await api.ok("GET", `/pis/api/v1/payin/quotation/${quote.id}`)).toEqual(quote);
    const utr = nextUtr();
    const payin = await api.ok("POST", INITIATE, {
      quotation_id: quote.id,
      client_reference_id: "pi-1",
      transaction_reference_id: utr,
    });
    expect(payin).toMatchObject({
      status: "PROCESSING",
      transaction_reference_id: utr,
      receiving_amount: quote.receiving_amount,
    });
    const event = await waitFor(() => receiver.deliveries.find((d) => d.body.type === "PAYIN"), "PAYIN event");
    expect(event.body).toMatchObject({
      id: payin.id,
      event: "SUCCESS",
      metadata: { transaction_reference_id: utr, transaction_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
    });
    expect((await api.ok("GET", `/pis/api/v1/payin/${payin.id}`)).status).toBe("SUCCESS");
  });

  it.each([
    ["4001", ["FAILED"], { failure_reason: "PAYMENT_NOT_RECEIVED" }],
    ["4002", ["ON_HOLD"], {}],
    ["4003", ["REFUND_INITIATED", "REFUNDED"], { refund_reason: "INCORRECT_AMOUNT" }],
    ["4004", ["FAILED"], { failure_reason: "INCORRECT_UTR" }],
  ])("moves a payin of %s INR through %j", async (amount, statuses, metadata) => {
    const { api, quoteBody } = await setup();
    const receiver = await startReceiver();
    await api.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
    const quote = await api.ok("POST", QUOTE, quoteBody({ sending_amount: amount }));
    const payin = await api.ok("POST", INITIATE, {
      quotation_id: quote.id,
      client_reference_id: `m-${amount}`,
      transaction_reference_id: nextUtr(),
    });
    await waitFor(() => receiver.deliveries.length >= statuses.length, "events");
    expect(receiver.deliveries.map((d) => d.body.event)).toEqual(statuses);
    for (const d of receiver.deliveries) expect(d.body).toMatchObject({ id: payin.id, metadata });
    expect((await api.ok("GET", `/pis/api/v1/payin/${payin.id}`)).status).toBe(statuses[statuses.length - 1]);
  });

  it("answers BANK_MODE_MISMATCH when the payment method does not match the account's rail", async () => {
    const { api, quoteBody } = await setup();
    const res = await api.post(QUOTE, quoteBody({ payment_method: "UPI" }));
    expect(res.body.err_code).toBe("BANK_MODE_MISMATCH");
  });

  it("answers the payin amount codes", async () => {
    const { api, quoteBody } = await setup();
    expect((await api.post(QUOTE, quoteBody({ sending_amount: "0" }))).body.err_code).toBe(
      "PAYIN_AMOUNT_ZERO_OR_NEGATIVE",
    );
    expect((await api.post(QUOTE, quoteBody({ sending_amount: "50" }))).body.err_code).toBe("PAYIN_AMOUNT_BELOW_MIN");
    expect((await api.post(QUOTE, quoteBody({ sending_amount: "600000" }))).body.err_code).toBe(
      "PAYIN_AMOUNT_ABOVE_MAX",
    );
  });

  it("answers PAYIN_INVALID_UTR_FORMAT and PAYIN_DUPLICATE_UTR", async () => {
    const { api, quoteBody } = await setup();
    const q1 = await api.ok("POST", QUOTE, quoteBody());
    const q2 = await api.ok("POST", QUOTE, quoteBody());
    expect(
      (await api.post(INITIATE, { quotation_id: q1.id, client_reference_id: "u1", transaction_reference_id: "12-34" }))
        .body.err_code,
    ).toBe("PAYIN_INVALID_UTR_FORMAT");
    const utr = nextUtr();
    await api.ok("POST", INITIATE, { quotation_id: q1.id, client_reference_id: "u1", transaction_reference_id: utr });
    const dup = await api.post(INITIATE, {
      quotation_id: q2.id,
      client_reference_id: "u2",
      transaction_reference_id: utr,
    });
    expect(dup.body).toMatchObject({
      err_code: "PAYIN_DUPLICATE_UTR",
      errors: { transaction_reference_id: [expect.any(String)] },
    });
  });

  it("answers PAYIN_DUPLICATE_CLIENT_REF_ID, PAYIN_QUOTATION_LINKED and PAYIN_QUOTATION_NOT_FOUND", async () => {
    const { api, quoteBody } = await setup();
    const q1 = await api.ok("POST", QUOTE, quoteBody());
    const q2 = await api.ok("POST", QUOTE, quoteBody());
    await api.ok("POST", INITIATE, {
      quotation_id: q1.id,
      client_reference_id: "same",
      transaction_reference_id: nextUtr(),
    });
    expect(
      (
        await api.post(INITIATE, {
          quotation_id: q2.id,
          client_reference_id: "same",
          transaction_reference_id: nextUtr(),
        })
      ).body.err_code,
    ).toBe("PAYIN_DUPLICATE_CLIENT_REF_ID");
    expect(
      (
        await api.post(INITIATE, {
          quotation_id: q1.id,
          client_reference_id: "other",
          transaction_reference_id: nextUtr(),
        })
      ).body.err_code,
    ).toBe("PAYIN_QUOTATION_LINKED");
    expect(
      (
        await api
          .as(ORG_B)
          .post(INITIATE, { quotation_id: q2.id, client_reference_id: "x", transaction_reference_id: nextUtr() })
      ).body.err_code,
    ).toBe("PAYIN_QUOTATION_NOT_FOUND");
  });

  it("answers PAYIN_QUOTATION_EXPIRED after the clock is advanced past expiry_time", async () => {
    const { api, quoteBody } = await setup({ quotationTtlSeconds: 60 });
    const quote = await api.ok("POST", QUOTE, quoteBody());
    expect(Date.parse(quote.expiry_time) - Date.parse(quote.created_at)).toBe(60_000);
    await api.ok("POST", "/_sandbox/clock/advance", { seconds: 61 });
    const res = await api.post(INITIATE, {
      quotation_id: quote.id,
      client_reference_id: "late",
      transaction_reference_id: nextUtr(),
    });
    expect(res.body.err_code).toBe("PAYIN_QUOTATION_EXPIRED");
  });

  it("lists payin history with pagination and the date-range rule", async () => {
    const { api, quoteBody, sandbox } = await setup();
    for (let i = 0; i < 11; i++) {
      const q = await api.ok("POST", QUOTE, quoteBody());
      await api.ok("POST", INITIATE, {
        quotation_id: q.id,
        client_reference_id: `h${i}`,
        transaction_reference_id: nextUtr(),
      });
    }
    const page = await api.ok("GET", "/pis/api/v1/payin/history", undefined, { query: { per_page: 10 } });
    expect(page).toMatchObject({
      count: 11,
      previous: null,
      next: `${sandbox.url}/pis/api/v1/payin/history?per_page=10&page=2`,
    });
    const lone = await api.get("/pis/api/v1/payin/history", { query: { end_date: "2026-03-01" } });
    expect(lone.body).toMatchObject({ err_code: "REQ_FIELD_MISSING", errors: { date_range: [expect.any(String)] } });
    const badDate = await api.get("/pis/api/v1/payin/history", {
      query: { start_date: "2026/03/01", end_date: "2026-03-02" },
    });
    expect(badDate.body.err_code).toBe("INPUT_MALFORMED");
  });

  it("answers USR_UNVERIFIED on limits for an unverified or unknown customer", async () => {
    const { api, customer } = await setup();
    expect((await api.ok("GET", `/pis/api/v1/payin/limits/${customer.id}`)).daily_limit).toBe("1000000.00");
    expect((await api.get("/pis/api/v1/payin/limits/00000000-0000-4000-8000-000000000000")).body.err_code).toBe(
      "USR_UNVERIFIED",
    );
    expect((await api.get("/pis/api/v1/payin/limits/nope")).body.err_code).toBe("USR_UNVERIFIED");
  });

  it("saves EDD, which a FAIL_EDD value fails with an EDD FAILED event, and lists it by customer", async () => {
    const { api, customer } = await setup();
    const receiver = await startReceiver();
    await api.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
    const edd = await api.ok("POST", "/pis/api/v1/payin/edd/save", { customer_id: customer.id, note: "FAIL_EDD" });
    const event = await waitFor(() => receiver.deliveries.find((d) => d.body.type === "EDD"), "EDD event");
    expect(event.body).toMatchObject({ id: edd.id, event: "FAILED" });
    const list = await api.ok("GET", "/pis/api/v1/payin/edd/list", undefined, { query: { customer_id: customer.id } });
    expect(list).toEqual([expect.objectContaining({ id: edd.id, status: "FAILED" })]);
    expect((await api.get("/pis/api/v1/payin/edd/list", { query: { customer_id: "bad" } })).body.err_code).toBe(
      "INPUT_INVALID_PARAMETER",
    );
  });
});
