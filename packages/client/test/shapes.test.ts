import type { BankAccountStatus } from "@exchange-kit/types";
import { describe, expect, expectTypeOf, it } from "vitest";
import { ExchangeValidationError } from "../src/index.js";
import { CUSTOMER_ID, json, ok, testClient } from "./support/fake-fetch.js";

const ACCOUNT = {
  id: "4d5e6f7a-8b9c-4d0e-a1f2-3b4c5d6e7f8a",
  customer_id: CUSTOMER_ID,
  country: "USA",
  bank_account_type: "ACCOUNT_DETAILS",
  identifiers: { account_number: "000123456789" },
  bank_account_status: "VERIFIED",
};

describe("shapes the document calls out", () => {
  it("turns the USA { accounts } bank list into a page", async () => {
    const { client } = testClient(() => ok({ accounts: [ACCOUNT, { ...ACCOUNT, id: "b2" }] }));
    const page = await client.banks.list(CUSTOMER_ID);
    expect(page).toEqual({ count: 2, next: null, previous: null, results: [ACCOUNT, { ...ACCOUNT, id: "b2" }] });
  });

  it("leaves the paginated bank list as it is", async () => {
    const data = { count: 1, next: null, previous: null, results: [{ ...ACCOUNT, country: "IND" }] };
    const { client } = testClient(() => ok(data));
    expect(await client.banks.list(CUSTOMER_ID)).toEqual(data);
  });

  it("iterates USA accounts with .all() like any other list", async () => {
    const { client } = testClient(() => ok({ accounts: [ACCOUNT] }));
    const ids: string[] = [];
    for await (const account of client.banks.list.all(CUSTOMER_ID)) ids.push(account.id);
    expect(ids).toEqual([ACCOUNT.id]);
  });

  it("types banks.list as a page for every country", () => {
    const { client } = testClient(() => ok({}));
    type Data = Awaited<ReturnType<typeof client.banks.list>>;
    // The spec's union of bank account statuses (not string), whatever form the list arrives in.
    expectTypeOf<Data["results"][number]["bank_account_status"]>().toEqualTypeOf<BankAccountStatus>();
    expectTypeOf<Data>().toHaveProperty("next");
  });

  it("puts integer wallet IDs in the path and types them as numbers", async () => {
    const { client, calls } = testClient(() =>
      ok({ id: 1024, wallet_address: "0xabc", network: "Polygon", status: "ACTIVE" }),
    );
    const wallet = await client.wallets.get(CUSTOMER_ID, 1024);
    expect(calls[0]!.url.pathname).toBe(`/cms/api/v1/customer/wallet/${CUSTOMER_ID}/1024`);
    expect(wallet.id).toBe(1024);
    expectTypeOf(client.wallets.get).parameter(1).toEqualTypeOf<number>();
    expectTypeOf(wallet.id).toEqualTypeOf<number>();
  });

  it("refuses a wallet ID that is not an integer", async () => {
    const { client, calls } = testClient(() => ok({}));
    await expect(client.wallets.delete(CUSTOMER_ID, 1.5)).rejects.toBeInstanceOf(ExchangeValidationError);
    expect(calls).toHaveLength(0);
  });

  it("keeps amounts and rates as decimal strings with every digit", async () => {
    const quotation = {
      id: "q",
      sending_amount: "1234567890.123456789012345678",
      receiving_amount: "100000000000000000000.01",
      rate: "88.123456789012345678901",
      fees: { service_fee: "0.10", client_fee: "0", client_gst: "0.018", tds: "1.00" },
    };
    const { client } = testClient(() => json({ status: true, message: "ok", data: quotation }));
    const result = await client.payouts.getQuotation("e1d2c3b4-a5f6-4e7d-8c9b-0a1f2e3d4c5b");
    expect(result).toEqual(quotation);
    expect(typeof result.rate).toBe("string");
    expectTypeOf(result.rate).toEqualTypeOf<string>();
    expectTypeOf(result.sending_amount).toEqualTypeOf<string>();
  });

  it("refuses an amount given as a number, which would lose digits", async () => {
    const { client, calls } = testClient(() => ok({}));
    const body = {
      asset: "USDT",
      fiat: "INR",
      customer_id: CUSTOMER_ID,
      bank_id: CUSTOMER_ID,
      risk_parameters: {},
      network: "tron",
      payment_method: "IMPS",
      sending_amount: 100.1 as unknown as string,
    };
    const error = await client.payouts.createQuotation(body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeValidationError);
    expect((error as ExchangeValidationError).fieldErrors.sending_amount![0]).toMatch(/decimal string/);
    expect(calls).toHaveLength(0);
  });

  it("sends decimal-string amounts unchanged", async () => {
    const { client, calls } = testClient(() => ok({}));
    await client.payouts.createQuotation({
      asset: "USDT",
      fiat: "INR",
      customer_id: CUSTOMER_ID,
      bank_id: CUSTOMER_ID,
      risk_parameters: {},
      network: "tron",
      payment_method: "IMPS",
      receiving_amount: "2500.00",
    });
    expect(calls[0]!.body).toContain('"receiving_amount":"2500.00"');
  });
});

describe("response keys with escapes (V8's JSON.parse bug, nodejs/node#63785)", () => {
  const primeV8 = () => JSON.parse('{"h":1,"\\\\":2}');

  it("reads an escaped key of a record as the key it is, after the parse that confuses V8", async () => {
    primeV8();
    const { client } = testClient(() => new Response('{"status":true,"data":{"h":1,"\\u7a3c":2}}', { status: 200 }));
    expect(await client.customers.get(CUSTOMER_ID)).toEqual({ h: 1, 稼: 2 });
  });

  it("reads it correctly through client.raw too", async () => {
    primeV8();
    const { client } = testClient(() => new Response('{"status":true,"data":{"h":1,"\\u7a3c":2}}', { status: 200 }));
    const { data } = await client.raw.GET("/cms/api/v1/customer/{customer_id}", {
      params: { path: { customer_id: CUSTOMER_ID } },
    });
    expect(Object.keys(data!.data as object)).toEqual(["h", "稼"]);
  });
});
