// Code as a user writes it, compiled by test/types.test.ts against the built package with strict,
// exactOptionalPropertyTypes and noUncheckedIndexedAccess, under NodeNext and bundler resolution. Each line
// that assigns to an annotated variable states a type the user relies on.
import { createExchangeClient, ExchangeAmbiguousResultError, type Page } from "@exchange-kit/client";
import type { components } from "@exchange-kit/types";

type Customer = components["schemas"]["Customer"];
type PayinOrder = components["schemas"]["PayinOrder"];
type EddRecord = components["schemas"]["EddRecord"];

// Options accept undefined (process.env values, optional settings passed through).
const client = createExchangeClient({
  apiKey: process.env.EXCHANGE_API_KEY,
  apiSecret: process.env.EXCHANGE_API_SECRET,
  baseUrl: process.env.EXCHANGE_BASE_URL,
  timeoutMs: undefined,
  logger: undefined,
});

export async function lists(
  customerId: string,
  page: number | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  const customers: Page<Customer> = await client.customers.list({ page, per_page: 20, signal });
  const ids: string[] = customers.results.map((c) => c.id);
  const payins = await client.payins.history({ page, start_date: undefined, end_date: undefined });
  const payinIds: string[] = payins.results.map((p: PayinOrder) => p.id);
  const payouts = await client.payouts.history();
  const payoutIds: string[] = payouts.results.map((p) => p.id);
  const prefunded = await client.payouts.listPrefundedHistory({ per_page: 10 });
  const prefundedIds: string[] = prefunded.results.map((p) => p.id);
  const edd = await client.payins.listEdd({ extraQuery: { customer_id: customerId } });
  const eddRecords: EddRecord[] = edd.results;
  const banks = await client.banks.list(customerId, { page: undefined });
  const bankIds: string[] = banks.results.map((b) => b.id);
  for await (const payin of client.payins.listHistory.all({ per_page: 50 })) payinIds.push(payin.id);
  console.log(ids, payinIds, payoutIds, prefundedIds, eddRecords, bankIds);
  // noUncheckedIndexedAccess: an element may be missing.
  const first: Customer | undefined = customers.results[0];
  console.log(first?.id);
}

export async function calls(customerId: string): Promise<void> {
  const customer = await client.customers.get(customerId, {
    timeoutMs: undefined,
    headers: undefined,
    deadlineMs: undefined,
  });
  const status: Customer["status"] = customer.status;
  await client.customers.waitForKyc(customerId, { timeoutMs: undefined, intervalMs: undefined });
  try {
    await client.payins.saveEdd({ customer_id: customerId });
  } catch (error) {
    if (error instanceof ExchangeAmbiguousResultError) console.log(error.check, status);
  }
}

// @ts-expect-error: a number is not a customer id path argument's type.
void client.customers.get(42);
// @ts-expect-error: unknown options are refused.
void client.customers.get("id", { nope: true });

// Typed orders: initiate resolves to the order's id, status (the spec's PayinOrder / PayoutOrder statuses) and
// client_reference_id, so the id goes straight to waitFor; the answer as received stays in raw.
export async function typedOrders(quotation: { id: string; expiry_time: string }): Promise<void> {
  const payin = await client.payins.initiate(
    { client_reference_id: "payin-1", transaction_reference_id: "412345678901" },
    { quotation },
  );
  const settled: PayinOrder = await client.payins.waitFor(payin.id);
  const payinStatus: PayinOrder["status"] = payin.status;
  const payinReference: string = payin.client_reference_id;
  const answer: { readonly [key: string]: unknown } = payin.raw;
  const payout = await client.payouts.initiate({ client_reference_id: "payout-1" }, { quotation });
  const payoutReference: string | null = payout.client_reference_id;
  const payoutStatus: components["schemas"]["PayoutOrder"]["status"] = (await client.payouts.waitFor(payout.id)).status;
  console.log(settled, payinStatus, payinReference, answer, payoutReference, payoutStatus);
}

// @ts-expect-error: an initiated payin's status is one of the spec's PayinOrder statuses.
export const unknownStatus: Awaited<ReturnType<typeof client.payins.initiate>>["status"] = "CREATED";
// @ts-expect-error: IN_REVIEW is a payout status, not a payin status.
export const payoutOnly: Awaited<ReturnType<typeof client.payins.initiate>>["status"] = "IN_REVIEW";

// Request types: the members the operation cannot do without are required.
export async function requiredMembers(customerId: string): Promise<void> {
  const images = {
    document_front_image_url: "https://f.example/front.png",
    document_back_image_url: "https://f.example/back.png",
  };
  await client.kyc.addData({ customer_id: customerId, ...images });
  await client.kyc.updateSelfie({ customer_id: customerId, selfie_url: "https://f.example/selfie.png" });
  await client.customers.create({ client_reference_id: "c-1", full_name: "Asha Verma" });
  await client.customers.create({ client_reference_id: "c-2", first_name: "Asha", last_name: "Verma" });
  // The sandbox's query parameter names (x-sandbox-parameters), typed and optional.
  await client.payins.fetchRate({ asset: "USDT", fiat: "INR" });
  await client.payouts.fetchRate({ asset: "USDT", fiat: "INR", timeoutMs: 5000 });
  await client.payins.listEdd({ customer_id: customerId });
}

const images = {
  document_front_image_url: "https://f.example/front.png",
  document_back_image_url: "https://f.example/back.png",
};
// @ts-expect-error: kyc.addData needs customer_id.
void client.kyc.addData({ full_name: "Asha Verma", ...images });
// @ts-expect-error: kyc.updateSelfie needs customer_id.
void client.kyc.updateSelfie({ selfie_url: "https://f.example/selfie.png" });
// @ts-expect-error: a customer needs full_name, or first_name and last_name.
void client.customers.create({ client_reference_id: "c-3", alpha_3_country_code: "IND" });
// @ts-expect-error: first_name goes with last_name.
void client.customers.create({ client_reference_id: "c-4", first_name: "Asha" });
// @ts-expect-error: fetchRate's asset is a string.
void client.payins.fetchRate({ asset: 1 });
// @ts-expect-error: fetchRate takes no other undeclared query parameter outside extraQuery.
void client.payins.fetchRate({ network: "tron" });
