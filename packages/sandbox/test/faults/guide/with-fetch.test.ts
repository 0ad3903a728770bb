// Testing failures with a bare fetch integration: a naive retry (any failure: quote and initiate again) pays
// twice when the initiate's answer is lost after the commit; keeping the reference and checking the history
// before retrying, as the interface document says, pays once.
import { parseJson, signRequest } from "@exchange-kit/signing";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Sandbox } from "@exchange-kit/sandbox";
import { payoutReady } from "./payout-ready.js";

let sandbox: Sandbox;
let customerId: string;
let bankId: string;
beforeEach(async () => {
  ({ sandbox, customerId, bankId } = await payoutReady());
});
afterEach(() => sandbox.close());

/** One signed call; throws on no answer (a dropped connection) and on any error answer. */
async function call(method: string, path: string, body?: object): Promise<any> {
  const { apiKey, apiSecret } = sandbox.organizations[0]!;
  const signed = await signRequest({ apiKey, apiSecret, ...(body ? { body } : {}) });
  const headers = body ? { ...signed.headers, "Content-Type": "application/json" } : signed.headers;
  const response = await fetch(`${sandbox.url}${path}`, { method, headers, body: signed.body });
  const envelope = parseJson(await response.text()) as { status: boolean; err_code?: string; data: any };
  if (!envelope.status) throw new Error(`${response.status} ${envelope.err_code}`);
  return envelope.data;
}

const quote = () =>
  call("POST", "/pos/api/v1/payout/quotation", {
    asset: "usdt",
    fiat: "INR",
    network: "tron",
    payment_method: "UPI",
    receiving_amount: "10000",
    customer_id: customerId,
    bank_id: bankId,
    risk_parameters: { ip_address: "203.0.113.24" },
  });

async function ordersFor(prefix: string) {
  const page = await call("GET", "/pos/api/v1/payout/history?per_page=100");
  return page.results.filter((order: { client_reference_id: string }) => order.client_reference_id.startsWith(prefix));
}

it("pays twice with a naive retry when the answer is lost after the commit", async () => {
  await call("POST", "/_sandbox/faults", { operation: "initiatePayout", fault: "DROP_AFTER_COMMIT" });
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      const { id } = await quote();
      await call("POST", "/pos/api/v1/payout/initiate", { quotation_id: id, client_reference_id: `naive-${attempt}` });
      break;
    } catch {
      // "It failed, try again": but the first payout was made.
    }
  }
  expect(await ordersFor("naive-")).toHaveLength(2);
});

it("pays once when it keeps its reference and checks the history before retrying", async () => {
  await call("POST", "/_sandbox/faults", { operation: "initiatePayout", fault: "DROP_AFTER_COMMIT" });
  const { id } = await quote();
  const body = { quotation_id: id, client_reference_id: "order-2001" };
  for (let attempt = 1; attempt <= 3; attempt++) {
    if ((await ordersFor("order-2001")).length > 0) break; // made by an attempt whose answer was lost
    try {
      await call("POST", "/pos/api/v1/payout/initiate", body);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** attempt)); // 1 s, 2 s, 4 s in production
    }
  }
  expect(await ordersFor("order-2001")).toHaveLength(1);
});
