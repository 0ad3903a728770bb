// The README's onboarding-to-payout example, run as written against a fake service that plays the flow.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { onboardingToPayout } from "../examples/onboarding-to-payout.js";
import { advance, apiError, ok, testClient, FAKE_TIMERS, type Recorded } from "./support/fake-fetch.js";
import { packageRoot } from "./support/spec.js";

const CUSTOMER_ID = "3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f";
const BANK_ID = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
const QUOTATION_ID = "e1d2c3b4-a5f6-4e7d-8c9b-0a1f2e3d4c5b";
const PAYOUT_ID = "c4b3a291-8f7e-4d6c-9b5a-4f3e2d1c0b9a";

/** A service that moves customer, bank and payout along as the polls come in. */
function flow() {
  const steps: string[] = [];
  let customerPolls = 0;
  let bankPolls = 0;
  let payoutPolls = 0;
  const orders: Record<string, unknown>[] = [];
  const handler = (request: Recorded) => {
    const { pathname } = request.url;
    const body = request.body === undefined ? undefined : (JSON.parse(request.body) as Record<string, any>);
    steps.push(`${request.method} ${pathname.replace(/[0-9a-f-]{36}/g, ":id")}`);
    switch (`${request.method} ${pathname}`) {
      case "POST /cms/api/v1/customer/create":
        return ok({ id: CUSTOMER_ID, client_reference_id: body!["client_reference_id"], full_name: body!["full_name"], country: "IND", type: "INDIVIDUAL", status: "UNVERIFIED" });
      case `GET /cms/api/v1/kyc/configuration/${CUSTOMER_ID}`:
        return ok({ supported_document_types: ["AADHAAR", "PAN"], additional_info_required: { options: [] }, is_tax_required: true });
      case "POST /cms/api/v1/kyc/add-kyc-data":
        return body!["tax_number"] === "ABCDE1234F" && body!["document_type"] === "PAN"
          ? ok({ id: "kyc-1", status: "PROCESSING", failure_reason: null })
          : apiError(400, "REQ_FIELD_MISSING", { tax_number: ["required"] });
      case `GET /cms/api/v1/customer/${CUSTOMER_ID}`:
        return ok({ id: CUSTOMER_ID, status: ++customerPolls < 3 ? "UNVERIFIED" : "VERIFIED", failure_reason: null });
      case "POST /cms/api/v1/bank/create":
        return ok({ id: BANK_ID, customer_id: CUSTOMER_ID, bank_account_type: "ACCOUNT_DETAILS", identifiers: body!["identifiers"], bank_account_status: "PROCESSING" });
      case `GET /cms/api/v1/bank/${CUSTOMER_ID}/${BANK_ID}`:
        return ok({ id: BANK_ID, customer_id: CUSTOMER_ID, bank_account_status: ++bankPolls < 2 ? "PROCESSING" : "VERIFIED", failure_reason: null });
      case "POST /pos/api/v1/payout/quotation":
        return ok({
          id: QUOTATION_ID,
          customer_id: CUSTOMER_ID,
          bank_id: body!["bank_id"],
          asset: "USDT",
          fiat: "INR",
          network: "tron",
          sending_amount: body!["sending_amount"],
          rate: "88.50",
          receiving_amount: "8850.00",
          wallet_address: "TXYZdeposit",
          expiry_time: new Date(Date.now() + 5 * 60_000).toISOString(),
        });
      case "POST /pos/api/v1/payout/initiate":
        if (body!["quotation_id"] !== QUOTATION_ID) return apiError(400, "PAYOUT_QUOTATION_NOT_FOUND");
        orders.push({ id: PAYOUT_ID, client_reference_id: body!["client_reference_id"], status: "PROCESSING" });
        return ok({});
      case "GET /pos/api/v1/payout/history":
        return ok({ count: orders.length + 1, next: null, previous: null, results: [{ id: "older", client_reference_id: "payout-000001", status: "SUCCESS" }, ...orders] });
      case `GET /pos/api/v1/payout/${PAYOUT_ID}`:
        return ok({ id: PAYOUT_ID, status: ++payoutPolls < 3 ? "PROCESSING" : "SUCCESS", receiving_amount: "8850.00", fiat: "INR", utr: "UTR0001" });
      default:
        return apiError(404, "NOT_FOUND", {}, `no route ${request.method} ${pathname}`);
    }
  };
  return { handler, steps };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("the README example", () => {
  it("includes examples/onboarding-to-payout.ts verbatim", () => {
    const readme = readFileSync(join(packageRoot, "README.md"), "utf8");
    const example = readFileSync(join(packageRoot, "examples", "onboarding-to-payout.ts"), "utf8");
    const block = /<!-- example:onboarding-to-payout -->\n```ts\n([\s\S]*?)```\n/.exec(readme);
    expect(block, "README has the marked example block").not.toBeNull();
    expect(block![1]).toBe(example);
  });

  it("runs from customer creation to a successful payout against a service that plays the flow", async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const service = flow();
    const { client } = testClient(service.handler);
    let settled = false;
    const done = onboardingToPayout(client).finally(() => (settled = true));
    for (let i = 0; i < 600 && !settled; i++) await advance(500);
    const payout = await done;
    expect(payout).toMatchObject({ id: PAYOUT_ID, status: "SUCCESS", utr: "UTR0001" });
    expect(service.steps).toEqual([
      "POST /cms/api/v1/customer/create",
      "GET /cms/api/v1/kyc/configuration/:id",
      "POST /cms/api/v1/kyc/add-kyc-data",
      "GET /cms/api/v1/customer/:id",
      "GET /cms/api/v1/customer/:id",
      "GET /cms/api/v1/customer/:id",
      "POST /cms/api/v1/bank/create",
      "GET /cms/api/v1/bank/:id/:id",
      "GET /cms/api/v1/bank/:id/:id",
      "POST /pos/api/v1/payout/quotation",
      "POST /pos/api/v1/payout/initiate",
      "GET /pos/api/v1/payout/history",
      "GET /pos/api/v1/payout/:id",
      "GET /pos/api/v1/payout/:id",
      "GET /pos/api/v1/payout/:id",
    ]);
  });
});
