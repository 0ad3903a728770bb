// The typed client (@exchange-kit/client) against the sandbox, with every response checked against the spec by
// the client's fetch, and every webhook delivery checked by @exchange-kit/webhook-verify.
import { describe, expect, it } from "vitest";
import { createExchangeClient, listOperations } from "@exchange-kit/client";
import { verifyWebhook } from "@exchange-kit/webhook-verify";
import { payoutQuotationBody, startReceiver, startSandbox, unique, kycBody, waitFor } from "./helpers.js";
import { assertResponseMatchesSpec } from "./spec-responses.js";

/** A fetch that checks each answer against the spec before the client sees it. */
const checkingFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const response = await fetch(request);
  const body: unknown = await response.clone().json();
  assertResponseMatchesSpec(request.method, new URL(request.url).pathname, response.status, body);
  return response;
};

type Call = (...args: unknown[]) => Promise<any>;

async function setup() {
  const sandbox = await startSandbox();
  const org = sandbox.organizations[0]!;
  const client = createExchangeClient({
    baseUrl: sandbox.url,
    apiKey: org.apiKey,
    apiSecret: org.apiSecret,
    fetch: checkingFetch,
    retryBaseMs: 1,
  }) as unknown as Record<string, Record<string, Call>>;
  // Methods are looked up by operationId, so the test follows the client's naming rules instead of repeating them.
  const names = new Map(listOperations().map((op) => [op.operationId, [op.group, op.name] as const]));
  const op = (operationId: string): Call => {
    const [group, name] = names.get(operationId)!;
    return client[group]![name]!.bind(client[group]);
  };
  return { sandbox, org, op };
}

describe("the typed client against the sandbox", () => {
  it("onboards a customer, links a bank account and runs a payout, with verified webhooks", async () => {
    const { sandbox, org, op } = await setup();
    const receiver = await startReceiver();
    await op("registerWebhook")({ webhook_url: receiver.url });
    const customer = await op("createCustomer")({
      client_reference_id: unique("client"),
      full_name: "Asha Verma",
      alpha_3_country_code: "IND",
    });
    expect(customer.status).toBe("UNVERIFIED");
    expect((await op("addKycData")(kycBody(customer.id))).status).toBe("PROCESSING");
    await waitFor(async () => (await op("getCustomer")(customer.id)).status === "VERIFIED", "VERIFIED");
    const bank = await op("createBankAccount")({
      customer_id: customer.id,
      bank_account_type: "UPI",
      identifiers: { vpa: "asha@okhdfc" },
    });
    await waitFor(
      async () => (await op("getBankAccount")(customer.id, bank.id)).bank_account_status === "VERIFIED",
      "bank VERIFIED",
    );
    const quote = await op("createPayoutQuotation")(
      payoutQuotationBody(customer.id, bank.id, { payment_method: "UPI" }),
    );
    const payout = await op("initiatePayout")({ quotation_id: quote.id, client_reference_id: unique("po") });
    await waitFor(async () => (await op("getPayout")(payout.id)).status === "SUCCESS", "payout SUCCESS");
    await waitFor(() => receiver.deliveries.length === 3, "three events");
    await sandbox.deliveriesSettled();
    const events = [];
    for (const d of receiver.deliveries) {
      events.push(
        await verifyWebhook({
          apiKey: org.apiKey,
          apiSecret: org.apiSecret,
          body: d.raw,
          headers: d.headers,
          strict: true,
        }),
      );
    }
    expect(events.map((e) => `${e.type} ${e.event}`)).toEqual(["CUSTOMER VERIFIED", "BANK VERIFIED", "PAYOUT SUCCESS"]);
  });

  it("surfaces the sandbox's error codes as the client's API errors", async () => {
    const { op } = await setup();
    await expect(op("getCustomer")("00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({
      errCode: "USR_NOT_FOUND",
    });
  });
});
