import { describe, expect, it } from "vitest";
import { PAYIN_CORRIDORS, PAYOUT_CORRIDORS } from "../src/domain/catalog.js";
import { add, div, eq, format, gte, lt, mul, parse, round, sub, sum } from "../src/domain/decimal.js";
import {
  formatPayinQuote,
  formatPayoutQuote,
  quotePayin,
  quotePayout,
  type RequestedAmount,
} from "../src/domain/pricing.js";

const P = { fiat: 2, crypto: 6 };
const d = parse;

/** A quote as exact values and as the strings the response carries. */
const payout = (rate: string, amount: RequestedAmount) => {
  const exact = quotePayout(rate, amount, P);
  return { ...formatPayoutQuote(exact, P), exact };
};
const payin = (rate: string, amount: RequestedAmount) => {
  const exact = quotePayin(rate, amount, P);
  return { ...formatPayinQuote(exact, P), exact };
};

/** Deterministic pseudo-random amounts with `decimals` decimals between 1 and 10^digits. */
function amounts(count: number, digits: number, decimals: number, seed = 7): string[] {
  const out: string[] = [];
  let x = BigInt(seed);
  for (let i = 0; i < count; i++) {
    x = (x * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
    const units = (x % 10n ** BigInt(digits + decimals)) + 1n;
    out.push(format({ units, scale: decimals }));
  }
  return out;
}

const payoutFeeSum = (q: ReturnType<typeof payout>) => sum(Object.values(q.fees).map(d));
const payinFeeSum = (q: ReturnType<typeof payin>) =>
  sum(
    [
      q.fees.service_fee,
      q.fees.service_gst,
      q.fees.pg_fee,
      q.fees.pg_gst,
      q.fees.client_fee_fiat,
      q.fees.client_gst_fiat,
    ].map(d),
  );

describe("quotation pricing", () => {
  it.each(Object.values(PAYOUT_CORRIDORS).map((c) => [c.fiat, c.rate]))(
    "returns a requested %s payout receiving_amount exactly, with fees that add up to the gross to the cent (rate %s)",
    (_fiat, rate) => {
      for (const requested of [...amounts(400, 7, 2), "2500.01", "499999.99", "0.01", "123456789012345678901.23"]) {
        const q = payout(rate, { receiving: d(requested) });
        expect(q.receiving_amount).toBe(format(d(requested), 2));
        // gross = the fiat value of the crypto sent, rounded down; receiving + fees = gross, exactly.
        const gross = round(mul(d(q.sending_amount), d(rate)), 2, "down");
        expect(format(add(d(q.receiving_amount), payoutFeeSum(q)))).toBe(format(gross));
        expect(eq(gross, q.exact.gross)).toBe(true);
        // The crypto asked for is the least that covers the gross.
        expect(format(div(gross, d(rate), 6, "up"))).toBe(q.sending_amount);
      }
    },
  );

  it("prices a payout from its sending_amount: the gross is rounded down and the fees add up to it", () => {
    for (const requested of [...amounts(400, 5, 6), "100", "0.000001", "9007199254740993.123456"]) {
      const q = payout("88", { sending: d(requested) });
      expect(q.sending_amount).toBe(format(d(requested), 6));
      const gross = round(mul(d(requested), d("88")), 2, "down");
      expect(format(add(d(q.receiving_amount), payoutFeeSum(q)))).toBe(format(gross));
      expect(q.rate).toBe(format(div(d(q.receiving_amount), d(q.sending_amount), 4, "half-up")));
    }
  });

  it("gives the same quote for a sending_amount as for the receiving_amount it was quoted for", () => {
    for (const requested of amounts(200, 6, 2, 11)) {
      const byReceiving = payout("88", { receiving: d(requested) });
      const bySending = payout("88", { sending: d(byReceiving.sending_amount) });
      expect(bySending).toEqual(byReceiving);
    }
  });

  it("computes the fees of a 10,000 INR payout to the cent", () => {
    const q = payout("88", { receiving: d("10000") });
    // gross 10182.78: service 0.5 % = 50.91, client 0.25 % = 25.46, GST 18 % of 25.46 = 4.58, TDS 1 % = 101.83.
    expect(q).toMatchObject({
      sending_amount: "115.713410",
      receiving_amount: "10000.00",
      fees: { service_fee: "50.91", client_fee: "25.46", client_gst: "4.58", tds: "101.83" },
      rate: "86.4204",
    });
    expect(format(q.exact.gross)).toBe("10182.78");
  });

  it("prices a payin from its sending_amount: the fees and the net add up to what is paid, and the crypto is rounded down", () => {
    const rate = PAYIN_CORRIDORS.INR!.rate;
    for (const requested of [...amounts(400, 6, 2), "25000.00", "9007199254740993.99"]) {
      const q = payin(rate, { sending: d(requested) });
      expect(q.sending_amount).toBe(format(d(requested), 2));
      expect(format(add(payinFeeSum(q), q.exact.net))).toBe(q.sending_amount);
      expect(q.receiving_amount).toBe(format(div(q.exact.net, d(rate), 6, "down")));
      expect(q.fees.tds).toBe("0.00");
    }
  });

  it("returns a requested payin receiving_amount exactly, paid by the least fiat whose net covers it", () => {
    const rate = PAYIN_CORRIDORS.INR!.rate;
    for (const requested of [...amounts(400, 4, 6), "100", "0.000001", "9007199254740993.000001"]) {
      const q = payin(rate, { receiving: d(requested) });
      expect(q.receiving_amount).toBe(format(d(requested), 6));
      expect(format(add(payinFeeSum(q), q.exact.net))).toBe(q.sending_amount);
      const cost = mul(d(requested), d(rate));
      // The net covers the crypto, with less than one cent to spare.
      expect(gte(q.exact.net, cost)).toBe(true);
      expect(lt(sub(q.exact.net, cost), d("0.01"))).toBe(true);
    }
  });

  it("computes the fees of a 25,000.00 INR payin to the cent", () => {
    const q = payin("90.5", { sending: d("25000.00") });
    // service 125.00 + GST 22.50, gateway 50.00 + GST 9.00, client 62.50 + GST 11.25: 280.25; net 24719.75.
    expect(q.fees).toEqual({
      client_fee_fiat: "62.50",
      client_fee_crypto: "0.690608",
      service_fee: "125.00",
      pg_fee: "50.00",
      client_gst_fiat: "11.25",
      client_gst_crypto: "0.124309",
      service_gst: "22.50",
      pg_gst: "9.00",
      tds: "0.00",
      gross_effective_exchange_rate: "91.5260",
    });
    expect(format(q.exact.net)).toBe("24719.75");
    expect(q.receiving_amount).toBe("273.146408");
  });
});
