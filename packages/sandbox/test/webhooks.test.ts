import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { verifySignature } from "@exchange-kit/signing";
import {
  Api,
  canonical,
  createCustomer,
  kycBody,
  startReceiver,
  startSandbox,
  verifiedBank,
  verifiedCustomer,
  waitFor,
} from "./helpers.js";

const REGISTER = "/org/api/v1/organizations/api-webhooks";

/** An independent check of a delivery's signature: Python's hmac over the raw body as received. */
function pythonVerifies(apiKey: string, apiSecret: string, timestamp: string, raw: string, signature: string): boolean {
  const script = [
    "import base64, hashlib, hmac, json, sys",
    "d = json.load(sys.stdin)",
    "msg = (d['key'] + '|' + d['ts'] + '|' + d['body']).encode()",
    "sig = base64.b64encode(hmac.new(d['secret'].encode(), msg, hashlib.sha256).digest()).decode()",
    "canon = json.dumps(json.loads(d['body']), sort_keys=True, separators=(',', ':'), ensure_ascii=True)",
    "print('ok' if hmac.compare_digest(sig, d['sig']) and canon == d['body'] else 'bad')",
  ].join("\n");
  const out = execFileSync("python3", ["-c", script], {
    input: JSON.stringify({ key: apiKey, secret: apiSecret, ts: timestamp, body: raw, sig: signature }),
  });
  return out.toString().trim() === "ok";
}

describe("webhooks", () => {
  it("registers a loopback http URL, which the spec's https rule would refuse, and rejects other http URLs", async () => {
    const api = new Api(await startSandbox());
    expect((await api.ok("POST", REGISTER, { webhook_url: "http://127.0.0.1:9/hooks" })).webhook_url).toBe(
      "http://127.0.0.1:9/hooks",
    );
    expect((await api.post(REGISTER, { webhook_url: "http://localhost:8080/x" })).status).toBe(200);
    expect((await api.post(REGISTER, { webhook_url: "https://hooks.example.com/exchange" })).status).toBe(200);
    const http = await api.post(REGISTER, { webhook_url: "http://hooks.example.com/x" });
    expect(http.body).toMatchObject({ err_code: "INPUT_MALFORMED", errors: { webhook_url: [expect.any(String)] } });
    expect((await api.post(REGISTER, {})).body.err_code).toBe("REQ_FIELD_MISSING");
  });

  it("signs every delivery with the organization's key and secret over the canonical body it sends", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    const org = sandbox.organizations[0]!;
    const receiver = await startReceiver();
    await api.ok("POST", REGISTER, { webhook_url: receiver.url });
    await verifiedCustomer(api, { full_name: "Zoë FAIL_KYC Ärmel" });
    const delivery = await waitFor(() => receiver.deliveries[0], "delivery");
    const timestamp = String(delivery.headers["x-timestamp"]);
    const signature = String(delivery.headers["x-signature"]);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(5);
    expect(delivery.headers["content-type"]).toBe("application/json");
    // The body sent is the canonical string itself (sorted keys, no whitespace, \u escapes).
    expect(delivery.raw).toBe(canonical(JSON.parse(delivery.raw)));
    expect(pythonVerifies(org.apiKey, org.apiSecret, timestamp, delivery.raw, signature)).toBe(true);
    expect(
      await verifySignature({
        apiKey: org.apiKey,
        apiSecret: org.apiSecret,
        timestamp,
        signature,
        canonicalBody: delivery.raw,
      }),
    ).toBe(true);
    expect(pythonVerifies(org.apiKey, "wrong-secret", timestamp, delivery.raw, signature)).toBe(false);
  });

  it("signs each organization's events with that organization's own credentials", async () => {
    const sandbox = await startSandbox();
    const [a, b] = sandbox.organizations as [(typeof sandbox.organizations)[0], (typeof sandbox.organizations)[0]];
    const receiverA = await startReceiver();
    const receiverB = await startReceiver();
    await new Api(sandbox, a).ok("POST", REGISTER, { webhook_url: receiverA.url });
    await new Api(sandbox, b).ok("POST", REGISTER, { webhook_url: receiverB.url });
    await verifiedCustomer(new Api(sandbox, b));
    const delivery = await waitFor(() => receiverB.deliveries[0], "delivery to B");
    const ts = String(delivery.headers["x-timestamp"]);
    expect(pythonVerifies(b.apiKey, b.apiSecret, ts, delivery.raw, String(delivery.headers["x-signature"]))).toBe(true);
    expect(receiverA.deliveries).toHaveLength(0);
  });

  it("retries a delivery the receiver answers with a non-2xx status, with growing waits", async () => {
    const sandbox = await startSandbox({ webhookRetry: { maxAttempts: 5, initialDelayMs: 40, factor: 2 } });
    const api = new Api(sandbox);
    const receiver = await startReceiver((_d, i) => (i < 3 ? 500 : 204));
    await api.ok("POST", REGISTER, { webhook_url: receiver.url });
    await createCustomer(api).then((c) => api.ok("POST", "/cms/api/v1/kyc/add-kyc-data", kycBody(c.id)));
    await waitFor(() => receiver.deliveries.length === 4, "4 attempts");
    const gaps = receiver.deliveries.slice(1).map((d, i) => d.at - receiver.deliveries[i]!.at);
    expect(gaps[0]).toBeGreaterThanOrEqual(35);
    expect(gaps[1]).toBeGreaterThanOrEqual(75);
    expect(gaps[2]).toBeGreaterThanOrEqual(155);
    await sandbox.deliveriesSettled();
    const [event] = await sandbox.events();
    expect(event!.deliveries[0]).toMatchObject({ state: "delivered" });
    expect(event!.deliveries[0]!.attempts.map((a) => a.status_code)).toEqual([500, 500, 500, 204]);
  });

  it("retries when the receiver does not answer within the timeout, and gives up after the last attempt", async () => {
    const sandbox = await startSandbox({ webhookTimeoutMs: 100, webhookRetry: { maxAttempts: 3, initialDelayMs: 10 } });
    const api = new Api(sandbox);
    const receiver = await startReceiver(() => new Promise((resolve) => setTimeout(() => resolve(200), 400)));
    await api.ok("POST", REGISTER, { webhook_url: receiver.url });
    await createCustomer(api).then((c) => api.ok("POST", "/cms/api/v1/kyc/add-kyc-data", kycBody(c.id)));
    await waitFor(async () => (await sandbox.events())[0]?.deliveries[0]?.state === "failed", "failed delivery");
    const delivery = (await sandbox.events())[0]!.deliveries[0]!;
    expect(delivery.attempts).toHaveLength(3);
    expect(delivery.attempts[0]!.error).toMatch(/no answer within 100 ms/);
    expect(receiver.deliveries).toHaveLength(3);
  });

  it("redelivers an event on request through the control API", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    const receiver = await startReceiver();
    await api.ok("POST", REGISTER, { webhook_url: receiver.url });
    await verifiedCustomer(api);
    await waitFor(() => receiver.deliveries.length === 1, "first delivery");
    const log = await api.ok("GET", "/_sandbox/events");
    expect(log.count).toBe(1);
    const eventId = log.results[0].id;
    const redelivery = await api.ok("POST", `/_sandbox/events/${eventId}/redeliver`);
    expect(redelivery.delivery.reason).toBe("redelivery");
    await waitFor(() => receiver.deliveries.length === 2, "redelivery");
    expect(receiver.deliveries[1]!.raw).toBe(receiver.deliveries[0]!.raw);
    expect(receiver.deliveries[1]!.headers["x-sandbox-event-id"]).toBe(eventId);
    const after = await api.ok("GET", "/_sandbox/events", undefined, { query: { id: log.results[0].body.id } });
    expect(after.results[0].deliveries.map((d: { reason: string; state: string }) => [d.reason, d.state])).toEqual([
      ["initial", "delivered"],
      ["redelivery", "delivered"],
    ]);
    expect((await api.post("/_sandbox/events/00000000-0000-4000-8000-000000000000/redeliver")).body.err_code).toBe(
      "INPUT_INVALID_PARAMETER",
    );
  });

  it("delivers every event twice when duplicate deliveries are on", async () => {
    const sandbox = await startSandbox({ duplicateDeliveries: true });
    const api = new Api(sandbox);
    const receiver = await startReceiver();
    await api.ok("POST", REGISTER, { webhook_url: receiver.url });
    await verifiedCustomer(api);
    await waitFor(() => receiver.deliveries.length === 2, "two deliveries");
    expect(receiver.deliveries[0]!.body).toEqual(receiver.deliveries[1]!.body);
    await api.ok("POST", "/_sandbox/settings", { duplicate_deliveries: false });
    await verifiedCustomer(api);
    await waitFor(() => receiver.deliveries.length === 3, "third delivery");
    await sandbox.deliveriesSettled();
    expect(receiver.deliveries).toHaveLength(3);
  });

  it("never sends PROCESSING: a full journey emits only the catalog's final statuses", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    const receiver = await startReceiver();
    await api.ok("POST", REGISTER, { webhook_url: receiver.url });
    const customer = await verifiedCustomer(api);
    const bank = await verifiedBank(api, customer.id);
    const quote = await api.ok("POST", "/pos/api/v1/payout/quotation", {
      asset: "usdt",
      fiat: "INR",
      customer_id: customer.id,
      bank_id: bank.id,
      network: "tron",
      payment_method: "IMPS",
      receiving_amount: "10000",
      risk_parameters: { ip_address: "203.0.113.24" },
    });
    const payout = await api.ok("POST", "/pos/api/v1/payout/initiate", { quotation_id: quote.id });
    await waitFor(() => receiver.deliveries.length >= 3, "events");
    // Moving back to PROCESSING through the control API is silent too.
    await api.ok("POST", `/_sandbox/payouts/${payout.id}/transition`, { status: "PROCESSING" });
    expect((await api.ok("GET", `/pos/api/v1/payout/${payout.id}`)).status).toBe("PROCESSING");
    await sandbox.deliveriesSettled();
    // One entry per event, as a receiver deduplicates: an attempt the 500 ms timeout cut short on a loaded machine
    // is sent again (at least once, as the document allows), and that is not what this test is about.
    const events = new Map(receiver.deliveries.map((d) => [d.headers["x-sandbox-event-id"], d.body]));
    expect([...events.values()].map((body) => `${body.type} ${body.event}`)).toEqual([
      "CUSTOMER VERIFIED",
      "BANK VERIFIED",
      "PAYOUT SUCCESS",
    ]);
    expect((await sandbox.events()).some((e) => e.body.event === "PROCESSING")).toBe(false);
  });

  it("logs events with no webhook registered as not delivered", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    await verifiedCustomer(api);
    const log = await api.ok("GET", "/_sandbox/events", undefined, { query: { type: "CUSTOMER" } });
    expect(log.results[0].deliveries[0].state).toBe("no_webhook");
  });

  it("delivers every (type, event) pair of the catalog, each matching the spec's event schema", async () => {
    const sandbox = await startSandbox({ autoProgressMs: false });
    const api = new Api(sandbox);
    const receiver = await startReceiver();
    await api.ok("POST", REGISTER, { webhook_url: receiver.url });
    const customer = await createCustomer(api);
    const move = (kind: string, id: string, body: Record<string, unknown>) =>
      api.ok("POST", `/_sandbox/${kind}/${id}/transition`, body);
    await move("customers", customer.id, { status: "FAILED", failure_reason: "TAX_VERIFICATION_FAILED" });
    await move("customers", customer.id, { status: "VERIFIED" });
    const bank = await api.ok("POST", "/cms/api/v1/bank/create", {
      customer_id: customer.id,
      bank_account_type: "ACCOUNT_DETAILS",
      identifiers: { account_number: "42", ifsc: "HDFC0001234" },
    });
    await move("banks", bank.id, { status: "FAILED", failure_reason: "ACCOUNT_TYPE_NRE" });
    await move("banks", bank.id, { status: "VERIFIED" });
    const payinQuote = await api.ok("POST", "/pis/api/v1/payin/quotation", {
      customer_id: customer.id,
      bank_id: bank.id,
      asset: "usdt",
      fiat: "INR",
      network: "tron",
      payment_method: "NEFT",
      wallet_address: "T1",
      sending_amount: "5000",
    });
    const payin = await api.ok("POST", "/pis/api/v1/payin/initiate", {
      quotation_id: payinQuote.id,
      client_reference_id: "all-pairs",
      transaction_reference_id: "ALLPAIRS0001",
    });
    for (const status of ["ON_HOLD", "FAILED", "REFUND_INITIATED", "REFUNDED", "SUCCESS"])
      await move("payins", payin.id, { status, refund_reason: "THIRD_PARTY_PAYMENT" });
    const payoutQuote = await api.ok("POST", "/pos/api/v1/payout/quotation", {
      asset: "usdt",
      fiat: "INR",
      customer_id: customer.id,
      bank_id: bank.id,
      network: "tron",
      payment_method: "IMPS",
      receiving_amount: "9000",
      risk_parameters: { ip_address: "203.0.113.9" },
    });
    const payout = await api.ok("POST", "/pos/api/v1/payout/initiate", { quotation_id: payoutQuote.id });
    await move("payouts", payout.id, { status: "IN_REVIEW", reason: "Request for information" });
    await move("payouts", payout.id, { status: "IN_REVIEW", reason: "Under compliance review" });
    for (const status of ["FAILED", "REFUNDED", "SUCCESS"]) await move("payouts", payout.id, { status });
    const edd = await api.ok("POST", "/pis/api/v1/payin/edd/save", { customer_id: customer.id });
    await move("edd", edd.id, { status: "FAILED" });
    await move("edd", edd.id, { status: "VERIFIED" });
    await waitFor(() => receiver.deliveries.length === 16, "16 deliveries");
    const pairs = new Set(receiver.deliveries.map((d) => `${d.body.type} ${d.body.event}`));
    expect([...pairs].sort()).toEqual(
      [
        "CUSTOMER VERIFIED",
        "CUSTOMER FAILED",
        "BANK VERIFIED",
        "BANK FAILED",
        "PAYIN SUCCESS",
        "PAYIN FAILED",
        "PAYIN REFUND_INITIATED",
        "PAYIN REFUNDED",
        "PAYIN ON_HOLD",
        "PAYOUT SUCCESS",
        "PAYOUT FAILED",
        "PAYOUT REFUNDED",
        "PAYOUT IN_REVIEW",
        "EDD VERIFIED",
        "EDD FAILED",
      ].sort(),
    );
  });
});
