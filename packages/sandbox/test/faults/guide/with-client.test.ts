// Testing failures with @exchange-kit/client: the payout function of an integration, against the sandbox's
// faults. The client retries what the document says to retry, and resolves a lost initiate answer through
// the order history, so a payout whose answer is lost after the commit is still made once.
import { createExchangeClient, type ExchangeClient } from "@exchange-kit/client";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Sandbox } from "@exchange-kit/sandbox";
import { payoutReady } from "./payout-ready.js";

// The integration's own code: quote, then initiate with a reference that stays the same on every retry.
async function sendPayout(client: ExchangeClient, customerId: string, bankId: string, reference: string) {
  const quote = await client.payouts.createQuotation({
    asset: "usdt",
    fiat: "INR",
    network: "tron",
    payment_method: "UPI",
    receiving_amount: "10000",
    customer_id: customerId,
    bank_id: bankId,
    risk_parameters: { ip_address: "203.0.113.24" },
  });
  return client.payouts.initiate({ quotation_id: quote.id, client_reference_id: reference });
}

let sandbox: Sandbox;
let client: ExchangeClient;
let customerId: string;
let bankId: string;
beforeEach(async () => {
  ({ sandbox, customerId, bankId } = await payoutReady());
  const { apiKey, apiSecret } = sandbox.organizations[0]!;
  // retryBaseMs: 1 s in production; short here so the test is quick.
  client = createExchangeClient({ baseUrl: sandbox.url, apiKey, apiSecret, retryBaseMs: 10 });
});
afterEach(() => sandbox.close());

async function ordersWith(reference: string) {
  const page = await client.payouts.listHistory({ per_page: 100 });
  return page.results.filter((order) => order.client_reference_id === reference);
}

it("makes the payout once when the initiate's answer is lost after the commit", async () => {
  await client.request("POST", "/_sandbox/faults", {
    body: { operation: "initiatePayout", fault: "DROP_AFTER_COMMIT", times: 1 },
  });
  await sendPayout(client, customerId, bankId, "order-1001");
  expect(await ordersWith("order-1001")).toHaveLength(1);
});

it("gets through 503s and a 429 with Retry-After on the quotation", async () => {
  await client.request("POST", "/_sandbox/faults", {
    body: { operation: "createPayoutQuotation", fault: "HTTP_503", times: 2 },
  });
  await client.request("POST", "/_sandbox/faults", {
    body: { operation: "createPayoutQuotation", fault: "HTTP_429", retry_after: 0 },
  });
  await sendPayout(client, customerId, bankId, "order-1002");
  expect(await ordersWith("order-1002")).toHaveLength(1);
});
