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
