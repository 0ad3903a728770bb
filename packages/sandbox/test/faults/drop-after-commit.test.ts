// DROP_AFTER_COMMIT on a payout initiate, the failure that moves money twice: the order is created and its
// event emitted, and the answer never comes. Our client (@exchange-kit/client) resolves it through the history
// and the sandbox holds exactly one order and one event.
import { createExchangeClient } from "@exchange-kit/client";
import { describe, expect, it } from "vitest";
import {
  Api,
  payoutQuotationBody,
  startReceiver,
  startSandbox,
  unique,
  verifiedBank,
  verifiedCustomer,
} from "../helpers.js";
import { arm, attempt } from "./fault-helpers.js";

async function quotedPayout() {
  const sandbox = await startSandbox();
  const api = new Api(sandbox);
  const receiver = await startReceiver();
  await api.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
  const customer = await verifiedCustomer(api);
  const bank = await verifiedBank(api, customer.id);
  const quote = await api.ok("POST", "/pos/api/v1/payout/quotation", payoutQuotationBody(customer.id, bank.id));
  await arm(api, { operation: "initiatePayout", fault: "DROP_AFTER_COMMIT" });
  return { sandbox, api, quote, receiver };
}

async function payoutEvents(api: Api, payoutId: string) {
  return (await api.ok("GET", "/_sandbox/events", undefined, { query: { type: "PAYOUT", id: payoutId } })).results;
}

describe("DROP_AFTER_COMMIT on initiatePayout", () => {
  it("leaves exactly one order and one event when our client retries it", async () => {
    const { sandbox, api, quote } = await quotedPayout();
    const org = sandbox.organizations[0]!;
    const client = createExchangeClient({ baseUrl: sandbox.url, ...org, retryBaseMs: 1, maxRetries: 3 });
    const reference = unique("po");
    const payout = (await client.payouts.initiate({ quotation_id: quote.id, client_reference_id: reference })) as {
      id: string;
    };
    const history = await api.ok("GET", "/pos/api/v1/payout/history", undefined, { query: { per_page: 100 } });
    const mine = history.results.filter((p: { client_reference_id: string }) => p.client_reference_id === reference);
    expect(mine).toHaveLength(1);
    expect(mine[0].id).toBe(payout.id);
    // Once the payout has reached its last status, its events are all there: exactly one.
    await expect.poll(async () => (await api.ok("GET", `/pos/api/v1/payout/${payout.id}`)).status).toBe("SUCCESS");
    await sandbox.deliveriesSettled();
    expect((await payoutEvents(api, payout.id)).map((e: any) => e.body.event)).toEqual(["SUCCESS"]);
    expect((await api.ok("GET", "/_sandbox/faults")).fired.by_fault).toEqual({ DROP_AFTER_COMMIT: 1 });
  });

  it("sends no answer, yet the order exists and its event is delivered", async () => {
    const { sandbox, api, quote, receiver } = await quotedPayout();
    const reference = unique("po");
    const ending = await attempt(api, "POST", "/pos/api/v1/payout/initiate", {
      quotation_id: quote.id,
      client_reference_id: reference,
    });
    expect(ending.answered).toBe(false);
    const history = await api.ok("GET", "/pos/api/v1/payout/history");
    const [order] = history.results.filter((p: { client_reference_id: string }) => p.client_reference_id === reference);
    expect(order).toBeDefined();
    await expect.poll(() => receiver.deliveries.filter((d) => d.body.id === order.id).length).toBe(1);
    await sandbox.deliveriesSettled();
  });
});
