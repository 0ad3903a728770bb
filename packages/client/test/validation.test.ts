import { describe, expect, it } from "vitest";
import { ExchangeValidationError } from "../src/index.js";
import { BODY_DATE_FIELDS, EXACTLY_ONE_OF } from "../src/validation.js";
import { CUSTOMER_ID, ok, testClient } from "./support/fake-fetch.js";
import { specOperations } from "./support/spec.js";

const QUOTATION = {
  asset: "USDT",
  fiat: "INR",
  customer_id: CUSTOMER_ID,
  bank_id: CUSTOMER_ID,
  risk_parameters: {},
  network: "tron",
  payment_method: "IMPS",
};

async function refused(promise: Promise<unknown>): Promise<ExchangeValidationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ExchangeValidationError);
  return error as ExchangeValidationError;
}

describe("input checks before sending", () => {
  it("refuses a payout quotation with both amounts", async () => {
    const { client, calls } = testClient(() => ok({}));
    const error = await refused(
      client.payouts.createQuotation({ ...QUOTATION, sending_amount: "10", receiving_amount: "900" } as never),
    );
    expect(error.fieldErrors).toEqual({
      "sending_amount|receiving_amount": ["send exactly one of sending_amount and receiving_amount, not both"],
    });
    expect(calls).toHaveLength(0);
  });

  it("refuses a payout quotation with neither amount", async () => {
    const { client, calls } = testClient(() => ok({}));
    await refused(client.payouts.createQuotation(QUOTATION as never));
    expect(calls).toHaveLength(0);
  });

  it("refuses a remittance quotation with both amounts", async () => {
    const { client, calls } = testClient(() => ok({}));
    await refused(
      client.payouts.createRemittanceQuotation({
        ...QUOTATION,
        remitter_id: CUSTOMER_ID,
        sending_amount: "10",
        receiving_amount: "900",
      } as never),
    );
    expect(calls).toHaveLength(0);
  });

  it("refuses a KYC date of birth not written DD-MM-YYYY", async () => {
    const { client, calls } = testClient(() => ok({}));
    const error = await refused(
      client.kyc.addData({ customer_id: CUSTOMER_ID, dob: "1990-01-31", document_type: "AADHAAR" } as never),
    );
    expect(error.fieldErrors.dob![0]).toMatch(/DD-MM-YYYY/);
    expect(calls).toHaveLength(0);
  });

  it("refuses a customer date of birth not written YYYY-MM-DD", async () => {
    const { client, calls } = testClient(() => ok({}));
    const error = await refused(
      client.customers.create({
        client_reference_id: "c",
        alpha_3_country_code: "USA",
        full_name: "A B",
        dob: "31-01-1990",
      }),
    );
    expect(error.fieldErrors.dob![0]).toMatch(/YYYY-MM-DD/);
    expect(calls).toHaveLength(0);
  });

  it("sends dates in the documented formats", async () => {
    const { client, calls } = testClient(() => ok({}));
    await client.customers.create({
      client_reference_id: "c",
      alpha_3_country_code: "USA",
      full_name: "A B",
      dob: "1990-01-31",
    });
    await client.kyc.addData({
      customer_id: CUSTOMER_ID,
      dob: "31-01-1990",
      registered_date: "01-02-2020",
      document_type: "PAN",
    } as never);
    expect(calls).toHaveLength(2);
  });

  it.each([
    ["listPayinHistory", { start_date: "2026-03-01" }],
    ["listPayoutHistory", { end_date: "2026-03-31" }],
    ["listPrefundedPayoutHistory", { start_date: "2026-03-01" }],
  ] as const)("refuses %s with a lone date %j", async (operationId, query) => {
    const { client, calls } = testClient(() => ok({}));
    const method =
      operationId === "listPayinHistory"
        ? client.payins.listHistory
        : operationId === "listPayoutHistory"
          ? client.payouts.listHistory
          : client.payouts.listPrefundedHistory;
    const error = await refused(method(query));
    expect(error.fieldErrors.date_range).toEqual(["start_date and end_date must be sent together"]);
    expect(calls).toHaveLength(0);
  });

  it("refuses a history date not written YYYY-MM-DD", async () => {
    const { client } = testClient(() => ok({}));
    const error = await refused(client.payins.listHistory({ start_date: "01-03-2026", end_date: "2026-03-31" }));
    expect(Object.keys(error.fieldErrors)).toEqual(["start_date"]);
  });

  it("sends a history with both dates", async () => {
    const { client, calls } = testClient(() => ok({ count: 0, next: null, previous: null, results: [] }));
    await client.payins.listHistory({ start_date: "2026-03-01", end_date: "2026-03-31" });
    expect(calls[0]!.url.search).toBe("?start_date=2026-03-01&end_date=2026-03-31");
  });

  it("refuses an empty path parameter, which would change the URL", async () => {
    const { client, calls } = testClient(() => ok({}));
    await refused(client.customers.get(""));
    expect(calls).toHaveLength(0);
  });

  it("escapes path parameters", async () => {
    const { client, calls } = testClient(() => ok({}));
    await client.customers.get("a/b?c");
    expect(calls[0]!.url.pathname).toBe("/cms/api/v1/customer/a%2Fb%3Fc");
  });

  it("refuses an option that is neither a query parameter nor a known option", async () => {
    const { client, calls } = testClient(() => ok({}));
    const error = await refused(client.payins.listHistory({ status: "SUCCESS" } as never));
    expect(error.message).toMatch(/extraQuery/);
    expect(calls).toHaveLength(0);
  });

  it("refuses a body that cannot be JSON", async () => {
    const { client, calls } = testClient(() => ok({}));
    await refused(
      client.customers.create({
        client_reference_id: "c",
        alpha_3_country_code: "IND",
        full_name: "A",
        extra: () => 1,
      } as never),
    );
    expect(calls).toHaveLength(0);
  });

  it("knows every request date field and every exactly-one-of pair the spec declares", () => {
    const dates: Record<string, Record<string, string>> = {};
    const pairs: Record<string, string[]> = {};
    for (const { operationId, operation } of specOperations()) {
      const schema = operation.requestBody?.content?.["application/json"]?.schema;
      if (!schema) continue;
      for (const [name, property] of Object.entries<any>(schema.properties ?? {})) {
        const title = property.title ?? property.allOf?.[0]?.title;
        if (title === "DateDMY") (dates[operationId] ??= {})[name] = "DD-MM-YYYY";
        if (title === "DateYMD") (dates[operationId] ??= {})[name] = "YYYY-MM-DD";
      }
      // A body that extends another with allOf (the remittance quotation's) keeps the pair in the extended schema.
      const branches: any[] = [schema, ...(schema.allOf ?? [])].find((part) => part.oneOf)?.oneOf ?? [];
      if (branches.length > 1 && branches.every((b) => b.required?.length === 1 && b.not?.required)) {
        pairs[operationId] = branches.map((b) => b.required[0]);
      }
    }
    expect(dates).toEqual(BODY_DATE_FIELDS);
    expect(pairs).toEqual(EXACTLY_ONE_OF);
  });

  it("checks the history date pair on every operation whose query has start_date and end_date", () => {
    const withDates = specOperations()
      .filter(({ operation }) => {
        const names = (operation.parameters ?? []).map((p: any) => p.name);
        return names.includes("start_date") && names.includes("end_date");
      })
      .map((op) => op.operationId)
      .sort();
    expect(withDates).toEqual(["listPayinHistory", "listPayoutHistory", "listPrefundedPayoutHistory"]);
  });
});
