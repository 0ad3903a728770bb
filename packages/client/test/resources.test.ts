import { canonicalize } from "@exchange-kit/signing";
import { describe, expect, expectTypeOf, it } from "vitest";
import { listOperations, type Page, type PathArgsOf } from "../src/index.js";
import { exampleCall } from "./support/examples.js";
import { CUSTOMER_ID, json, ok, testClient } from "./support/fake-fetch.js";
import { firstExampleOf, specOperations } from "./support/spec.js";

type Method = ((...args: unknown[]) => Promise<unknown>) & { operationId: string };

/** The order the history shows for an initiate body, and what initiate resolves to once it finds it there. */
const orderFor = (body: string | undefined) => ({
  id: "5d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a",
  status: "PROCESSING",
  client_reference_id: (JSON.parse(body ?? "{}") as { client_reference_id?: string }).client_reference_id ?? null,
});
const historyPage = (body: string | undefined) => ({ count: 1, next: null, previous: null, results: [orderFor(body)] });
const initiated = (body: string | undefined, raw: unknown) => ({ ...orderFor(body), raw });

describe("resource methods", () => {
  it("reaches every operation in the spec through its resource method", async () => {
    const byId = new Map(listOperations().map((op) => [op.operationId, op]));
    const reached: string[] = [];
    for (const op of specOperations()) {
      const example = exampleCall(op);
      const answer = firstExampleOf(op.operation.responses["200"].content["application/json"]) as { data: unknown };
      // initiate's answer (`{}` in the spec) does not identify the order: it is then looked up in the history.
      const { client, calls } = testClient((request) =>
        calls.length > 1 && request.url.pathname.endsWith("/history") ? ok(historyPage(calls[0]!.body)) : json(answer),
      );
      const { group, name } = byId.get(op.operationId)!;
      const method = (client as unknown as Record<string, Record<string, Method>>)[group]![name]!;
      const data = await method(...example.args);

      const call = calls[0]!;
      let path = op.path;
      for (const [key, value] of Object.entries(example.pathValues)) path = path.replace(`{${key}}`, String(value));
      expect(call.method, op.operationId).toBe(op.method);
      expect(call.url.pathname, op.operationId).toBe(path);
      expect(Object.fromEntries(call.url.searchParams), op.operationId).toEqual(
        Object.fromEntries(Object.entries(example.query).map(([k, v]) => [k, String(v)])),
      );
      expect(call.body, op.operationId).toBe(example.body === undefined ? undefined : canonicalize(example.body));
      // List operations resolve to a page whatever their data's form ({ accounts }, a bare array for EDD lists).
      const expected = answer.data as { accounts?: unknown[] } | unknown[];
      const records = Array.isArray(expected)
        ? expected
        : Array.isArray(expected?.accounts)
          ? expected.accounts
          : undefined;
      const resolved = op.operation["x-idempotency"] === "guarded" ? initiated(call.body, expected) : expected;
      expect(data, op.operationId).toEqual(
        records !== undefined ? { count: records.length, next: null, previous: null, results: records } : resolved,
      );
      reached.push(op.operationId);
    }
    expect(reached.sort()).toEqual(
      listOperations()
        .map((op) => op.operationId)
        .sort(),
    );
    expect(reached.length).toBeGreaterThanOrEqual(42);
  });

  it("takes path parameters positionally in path order, then options", async () => {
    const { client, calls } = testClient(() => ok({ count: 0, next: null, previous: null, results: [] }));
    await client.banks.list(CUSTOMER_ID, { page: 3 });
    await client.banks.get(CUSTOMER_ID, "bank-1");
    expect(calls.map((c) => `${c.url.pathname}${c.url.search}`)).toEqual([
      `/cms/api/v1/bank/list/${CUSTOMER_ID}?page=3`,
      `/cms/api/v1/bank/${CUSTOMER_ID}/bank-1`,
    ]);
    expectTypeOf<PathArgsOf<"getBankAccount">>().toEqualTypeOf<[string, string]>();
    expectTypeOf<PathArgsOf<"getWallet">>().toEqualTypeOf<[string, number]>();
    expectTypeOf<PathArgsOf<"createCustomer">>().toEqualTypeOf<[]>();
  });

  it("takes the body first when there are no path parameters, and returns the envelope's data", async () => {
    const { client, calls } = testClient(() => ok({ id: CUSTOMER_ID, status: "UNVERIFIED" }));
    const customer = await client.customers.create({
      client_reference_id: "c-1",
      alpha_3_country_code: "IND",
      full_name: "Asha",
    });
    expect(customer.status).toBe("UNVERIFIED");
    expect(JSON.parse(calls[0]!.body!)).toEqual({
      client_reference_id: "c-1",
      alpha_3_country_code: "IND",
      full_name: "Asha",
    });
    expectTypeOf(customer.id).toEqualTypeOf<string>();
  });

  it("types methods from the spec: bodies, query options and results", () => {
    const { client } = testClient(() => ok({}));
    expectTypeOf(client.customers.create).parameter(0).toHaveProperty("client_reference_id");
    expectTypeOf(client.banks.list)
      .parameter(1)
      .toMatchTypeOf<{ page?: number; per_page?: number; signal?: AbortSignal } | undefined>();
    expectTypeOf<Awaited<ReturnType<typeof client.banks.list>>>().toMatchTypeOf<Page<unknown>>();
    // @ts-expect-error: the customer id is required
    void (() => client.customers.get());
    // @ts-expect-error: banks.list has no such query parameter
    void (() => client.banks.list(CUSTOMER_ID, { pages: 1 }));
    // @ts-expect-error: the body is required
    void (() => client.customers.create());
  });

  it("refuses extra positional arguments", async () => {
    const { client, calls } = testClient(() => ok({}));
    const get = client.customers.get as unknown as (...args: unknown[]) => Promise<unknown>;
    await expect(get(CUSTOMER_ID, {}, {})).rejects.toThrow(/at most 2 arguments/);
    expect(calls).toHaveLength(0);
  });

  it("names the operation each method calls", () => {
    const { client } = testClient(() => ok({}));
    expect(client.payouts.createQuotation.operationId).toBe("createPayoutQuotation");
    expectTypeOf(client.payouts.createQuotation.operationId).toEqualTypeOf<"createPayoutQuotation">();
  });
});
