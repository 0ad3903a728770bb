import { describe, expect, it } from "vitest";
import { checkQuotation, ExchangeValidationError, QuotationExpiredError } from "../src/index.js";
import { ok, testClient } from "./support/fake-fetch.js";

const QUOTATION_ID = "e1d2c3b4-a5f6-4e7d-8c9b-0a1f2e3d4c5b";
const future = () => new Date(Date.now() + 60_000).toISOString();
const past = () => new Date(Date.now() - 1000).toISOString();

describe("quotation expiry", () => {
  it("refuses an expired quotation before sending anything", async () => {
    const { client, calls } = testClient(() => ok({}));
    const quotation = { id: QUOTATION_ID, expiry_time: past() };
    const error = await client.payouts
      .initiate({ quotation_id: QUOTATION_ID, client_reference_id: "p-1" }, { quotation })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotationExpiredError);
    expect(error).toBeInstanceOf(ExchangeValidationError);
    expect((error as QuotationExpiredError).expiryTime).toBe(quotation.expiry_time);
    expect((error as QuotationExpiredError).quotationId).toBe(QUOTATION_ID);
    expect(calls).toHaveLength(0);
  });

  it("refuses an expired payin quotation the same way", async () => {
    const { client, calls } = testClient(() => ok({}));
    await expect(
      client.payins.initiate({ client_reference_id: "p-1" }, { quotation: { id: QUOTATION_ID, expiry_time: past() } }),
    ).rejects.toBeInstanceOf(QuotationExpiredError);
    expect(calls).toHaveLength(0);
  });

  it("sends a quotation still valid, filling quotation_id from it", async () => {
    const { client, calls } = testClient(() => ok({ id: "order-1", status: "PROCESSING" }));
    await client.payouts.initiate(
      { client_reference_id: "p-1" },
      { quotation: { id: QUOTATION_ID, expiry_time: future() } },
    );
    expect(JSON.parse(calls[0]!.body!)).toEqual({ client_reference_id: "p-1", quotation_id: QUOTATION_ID });
  });

  it("refuses a body whose quotation_id is another quotation", () => {
    expect(() => checkQuotation({ id: QUOTATION_ID, expiry_time: future() }, { quotation_id: "other" })).toThrow(
      ExchangeValidationError,
    );
  });

  it("accepts a quotation without an expiry_time (payin quotations do not publish one)", () => {
    expect(checkQuotation({ id: QUOTATION_ID }, {})).toEqual({ quotation_id: QUOTATION_ID });
  });

  it("compares the expiry with the clock passed in", () => {
    const quotation = { id: QUOTATION_ID, expiry_time: "2026-03-01T10:00:00Z" };
    expect(() => checkQuotation(quotation, {}, undefined, Date.parse("2026-03-01T09:59:59Z"))).not.toThrow();
    expect(() => checkQuotation(quotation, {}, undefined, Date.parse("2026-03-01T10:00:00Z"))).toThrow(
      QuotationExpiredError,
    );
  });
});
