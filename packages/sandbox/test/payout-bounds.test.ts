import { describe, expect, it } from "vitest";
import { payoutBoundsError } from "../src/api/payouts.js";
import { PAYOUT_CORRIDORS } from "../src/domain/catalog.js";
import { dec, parse } from "../src/domain/decimal.js";
import { spec } from "../src/spec/openapi.js";

/** The limits table's payout bounds as the spec lists them on createPayoutQuotation. */
interface SpecBound {
  fiat: string;
  payment_method?: string;
  exclusiveMinimum?: string;
  exclusiveMaximum?: string;
  err_code: string;
}
const quotation = spec.paths["/pos/api/v1/payout/quotation"]!.post as unknown as { "x-amount-bounds": SpecBound[] };
const specBounds = quotation["x-amount-bounds"];

describe("the bounds of a payout method", () => {
  const imps = { minFiat: "2500", maxFiat: "500000" };
  const amount = { field: "receiving_amount" as const, raw: "1", value: dec("1") };
  const cases: Array<[receiving: string, code: string | undefined]> = [
    ["2500", "PAYOUT_AMOUNT_BELOW_MIN"],
    ["2499.99", "PAYOUT_AMOUNT_BELOW_MIN"],
    ["2500.01", undefined],
    ["499999.99", undefined],
    ["500000", "PAYOUT_AMOUNT_ABOVE_MAX"],
    ["500000.01", "PAYOUT_AMOUNT_ABOVE_MAX"],
  ];
  it.each(cases)(
    "refuses a beneficiary amount of %s INR by IMPS with %s (both bounds exclusive)",
    (receiving, code) => {
      expect(payoutBoundsError(parse(receiving), imps, { amount, method: "IMPS", fiat: "INR" })?.code).toBe(code);
    },
  );

  it("says what the beneficiary must receive and what the amount sent gives", () => {
    const error = payoutBoundsError(parse("600000"), imps, { amount, method: "IMPS", fiat: "INR" });
    expect(error?.errors).toEqual({
      receiving_amount: ["The beneficiary must receive less than 500000.00 INR by IMPS; 1 gives 600000.00 INR."],
    });
  });

  it("holds every method of a bound's fiat to the spec's x-amount-bounds, with the bound's err_code at the bound", () => {
    expect(specBounds.length).toBeGreaterThan(0);
    for (const bound of specBounds) {
      const corridor = PAYOUT_CORRIDORS[bound.fiat]!;
      const methods = bound.payment_method ? [bound.payment_method] : Object.keys(corridor.methods);
      for (const method of methods) {
        const limits = corridor.methods[method]!;
        const at = bound.exclusiveMinimum ?? bound.exclusiveMaximum!;
        expect(bound.exclusiveMinimum === undefined ? limits.maxFiat : limits.minFiat).toBe(at);
        const request = {
          amount: { field: "receiving_amount" as const, raw: at, value: dec(at) },
          method,
          fiat: bound.fiat,
        };
        expect(payoutBoundsError(parse(at), limits, request)?.code).toBe(bound.err_code);
      }
    }
  });
});
