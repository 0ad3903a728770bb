// Money is exact: amounts stay decimal strings end to end. These tests drive the sandbox over HTTP (every answer is
// checked against the spec by the helper) and recompute quotes independently with Python's decimal module.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { add, format, mul, parse, round, sum } from "../src/domain/decimal.js";
import {
  Api,
  payoutQuotationBody,
  startReceiver,
  startSandbox,
  verifiedBank,
  verifiedCustomer,
  waitFor,
} from "./helpers.js";

const PAYOUT_QUOTE = "/pos/api/v1/payout/quotation";
const PAYOUT_INITIATE = "/pos/api/v1/payout/initiate";
const PAYIN_QUOTE = "/pis/api/v1/payin/quotation";
const PAYIN_INITIATE = "/pis/api/v1/payin/initiate";
const BEYOND_2_53 = "9007199254740993"; // 2^53 + 1: Number() reads it as 9007199254740992

async function setup() {
  const sandbox = await startSandbox();
  const api = new Api(sandbox);
  const customer = await verifiedCustomer(api);
  const bank = await verifiedBank(api, customer.id);
  const payout = (overrides: Record<string, unknown> = {}) => payoutQuotationBody(customer.id, bank.id, overrides);
  const payoutBySending = (sending_amount: string, overrides: Record<string, unknown> = {}) =>
    payout({ receiving_amount: undefined, sending_amount, ...overrides });
  const payin = (overrides: Record<string, unknown> = {}) => ({
    customer_id: customer.id,
    bank_id: bank.id,
    asset: "usdt",
    fiat: "INR",
    network: "polygon",
    payment_method: "IMPS",
    wallet_address: "0x1111111111111111111111111111111111111111",
    risk_parameters: { ip_address: "203.0.113.24" },
    ...overrides,
  });
  return { sandbox, api, customer, bank, payout, payoutBySending, payin };
}

let utrSeq = 700000000000;
const nextUtr = () => String(utrSeq++);

const python = spawnSync("python3", ["--version"]).status === 0;

/**
 * Recomputes quotes with Python's decimal module, from the fee schedule the sandbox guide (docs/guides/sandbox-in-depth.md) documents; answers the list of
 * disagreements (empty when every quote is exact).
 */
function pythonCheck(
  cases: Array<{ kind: "payout" | "payin"; requested: Record<string, string>; quote: unknown }>,
): string[] {
  // biome-ignore lint/complexity/noUselessStringRaw: raw so a backslash added to the Python later reaches Python as written.
  const script = String.raw`
import json, sys
from decimal import Decimal as D, ROUND_HALF_UP, ROUND_DOWN, ROUND_UP, getcontext
getcontext().prec = 100
CENT, MICRO, RATE = D("0.01"), D("0.000001"), D("0.0001")
def fee(amount, share): return (amount * D(share)).quantize(CENT, ROUND_HALF_UP)
problems = []
def check(label, got, want):
    if D(str(got)) != want: problems.append(f"{label}: sandbox {got}, python {want}")
for case in json.loads(sys.stdin.read(), parse_float=D):
    q, req = case["quote"], case["requested"]
    if case["kind"] == "payout":
        R = D("88")
        S, Rv = D(q["sending_amount"]), D(q["receiving_amount"])
        gross = (S * R).quantize(CENT, ROUND_DOWN)
        service, client, tds = fee(gross, "0.005"), fee(gross, "0.0025"), fee(gross, "0.01")
        gst = fee(client, "0.18")
        check("service_fee", q["fees"]["service_fee"], service)
        check("client_fee", q["fees"]["client_fee"], client)
        check("client_gst", q["fees"]["client_gst"], gst)
        check("tds", q["fees"]["tds"], tds)
        check("receiving = gross - fees", Rv, gross - service - client - gst - tds)
        check("rate", q["rate"], (Rv / S).quantize(RATE, ROUND_HALF_UP))
        if "receiving_amount" in req:
            if q["receiving_amount"] != str(D(req["receiving_amount"]).quantize(CENT)): problems.append(f"receiving {q['receiving_amount']} != requested {req['receiving_amount']}")
            check("sending covers gross", S, (gross / R).quantize(MICRO, ROUND_UP))
        else:
            if q["sending_amount"] != str(D(req["sending_amount"]).quantize(MICRO)): problems.append(f"sending {q['sending_amount']} != requested {req['sending_amount']}")
    else:
        R = D("90.5")
        P, Dl, f = D(q["sending_amount"]), D(q["receiving_amount"]), q["fees"]
        service, pg, client = fee(P, "0.005"), fee(P, "0.002"), fee(P, "0.0025")
        sgst, pggst, cgst = fee(service, "0.18"), fee(pg, "0.18"), fee(client, "0.18")
        for name, want in [("service_fee", service), ("pg_fee", pg), ("client_fee_fiat", client), ("service_gst", sgst), ("pg_gst", pggst), ("client_gst_fiat", cgst), ("tds", D(0))]:
            check(name, f[name], want)
        check("client_fee_crypto", f["client_fee_crypto"], (client / R).quantize(MICRO, ROUND_HALF_UP))
        check("client_gst_crypto", f["client_gst_crypto"], (cgst / R).quantize(MICRO, ROUND_HALF_UP))
        check("gross_effective_exchange_rate", f["gross_effective_exchange_rate"], (P / Dl).quantize(RATE, ROUND_HALF_UP))
        net = P - service - pg - client - sgst - pggst - cgst
        if "sending_amount" in req:
            if q["sending_amount"] != str(D(req["sending_amount"]).quantize(CENT)): problems.append(f"sending {q['sending_amount']} != requested {req['sending_amount']}")
            check("receiving = net / rate, down", Dl, (net / R).quantize(MICRO, ROUND_DOWN))
        else:
            if q["receiving_amount"] != str(D(req["receiving_amount"]).quantize(MICRO)): problems.append(f"receiving {q['receiving_amount']} != requested {req['receiving_amount']}")
            if not (D(0) <= net - Dl * R < CENT): problems.append(f"net {net} does not cover {Dl} x {R} within a cent")
print(json.dumps(problems))
`;
  const run = spawnSync("python3", ["-c", script], { input: JSON.stringify(cases), encoding: "utf8" });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as string[];
}

describe("exact money", () => {
  it("refuses 2,500 INR and accepts 2,500.01 INR for a payout, echoing the amount exactly", async () => {
    const { api, payout } = await setup();
    for (const at of ["2500", "2500.00", "2500.000000000000000"]) {
      const res = await api.post(PAYOUT_QUOTE, payout({ receiving_amount: at }));
      expect(res.body).toMatchObject({
        err_code: "PAYOUT_AMOUNT_BELOW_MIN",
        errors: { receiving_amount: [`The beneficiary must receive more than 2500.00 INR; ${at} gives 2500.00 INR.`] },
      });
    }
    expect((await api.ok("POST", PAYOUT_QUOTE, payout({ receiving_amount: "2500.01" }))).receiving_amount).toBe(
      "2500.01",
    );
  });

  it("refuses 2500.000000000000001 with INPUT_MALFORMED, since INR has 2 decimals and USDT 6, instead of reading it as 2,500", async () => {
    const { api, payout, payoutBySending, payin } = await setup();
    const inr = await api.post(PAYOUT_QUOTE, payout({ receiving_amount: "2500.000000000000001" }));
    expect(inr.body).toMatchObject({
      err_code: "INPUT_MALFORMED",
      message: "Invalid value for receiving_amount",
      errors: {
        receiving_amount: [
          "INR amounts have at most 2 decimals; 2500.000000000000001 has more. The sandbox does not round a requested amount.",
        ],
      },
    });
    const usdt = await api.post(PAYOUT_QUOTE, payoutBySending("2500.000000000000001"));
    expect(usdt.body).toMatchObject({
      err_code: "INPUT_MALFORMED",
      errors: {
        sending_amount: [expect.stringContaining("USDT amounts have at most 6 decimals; 2500.000000000000001")],
      },
    });
    const payinInr = await api.post(PAYIN_QUOTE, payin({ sending_amount: "2500.000000000000001" }));
    expect(payinInr.body).toMatchObject({
      err_code: "INPUT_MALFORMED",
      errors: { sending_amount: [expect.stringContaining("INR amounts have at most 2 decimals")] },
    });
  });

  it("refuses 100.005 instead of rounding it, and accepts trailing zeros that lose nothing", async () => {
    const { api, payout, payoutBySending, payin } = await setup();
    expect((await api.post(PAYIN_QUOTE, payin({ sending_amount: "100.005" }))).body.err_code).toBe("INPUT_MALFORMED");
    expect((await api.post(PAYIN_QUOTE, payin({ receiving_amount: "10.0000001" }))).body).toMatchObject({
      err_code: "INPUT_MALFORMED",
      errors: { receiving_amount: [expect.stringContaining("USDT amounts have at most 6 decimals")] },
    });
    expect((await api.post(PAYOUT_QUOTE, payoutBySending("100.0000001"))).body.err_code).toBe("INPUT_MALFORMED");
    expect((await api.ok("POST", PAYIN_QUOTE, payin({ sending_amount: "100.500" }))).sending_amount).toBe("100.50");
    expect((await api.ok("POST", PAYOUT_QUOTE, payout({ receiving_amount: "2600.100000" }))).receiving_amount).toBe(
      "2600.10",
    );
    expect((await api.ok("POST", PAYOUT_QUOTE, payoutBySending("100.1234560"))).sending_amount).toBe("100.123456");
  });

  it("accepts 499,999.99 INR and refuses 500,000 INR by IMPS", async () => {
    const { api, payout } = await setup();
    expect((await api.ok("POST", PAYOUT_QUOTE, payout({ receiving_amount: "499999.99" }))).receiving_amount).toBe(
      "499999.99",
    );
    for (const at of ["500000", "500000.00"]) {
      expect((await api.post(PAYOUT_QUOTE, payout({ receiving_amount: at }))).body).toMatchObject({
        err_code: "PAYOUT_AMOUNT_ABOVE_MAX",
        errors: {
          receiving_amount: [
            `The beneficiary must receive less than 500000.00 INR by IMPS; ${at} gives 500000.00 INR.`,
          ],
        },
      });
    }
    expect((await api.post(PAYOUT_QUOTE, payout({ receiving_amount: "499999.999" }))).body.err_code).toBe(
      "INPUT_MALFORMED",
    );
  });

  it("applies the bounds exactly to the fiat a sending_amount buys, which quotes back to the same receiving_amount", async () => {
    const { api, payout, payoutBySending } = await setup();
    const justAbove = await api.ok("POST", PAYOUT_QUOTE, payout({ receiving_amount: "2500.01" }));
    const bySending = await api.ok("POST", PAYOUT_QUOTE, payoutBySending(justAbove.sending_amount));
    expect(bySending).toMatchObject({
      sending_amount: justAbove.sending_amount,
      receiving_amount: "2500.01",
      fees: justAbove.fees,
      rate: justAbove.rate,
    });
    // One micro-USDT less buys less than 2,500.01 INR: at most 2,500.00, refused.
    const less = format(add(parse(justAbove.sending_amount), parse("-0.000001")));
    const refused = await api.post(PAYOUT_QUOTE, payoutBySending(less));
    expect(refused.body).toMatchObject({
      err_code: "PAYOUT_AMOUNT_BELOW_MIN",
      errors: { sending_amount: [expect.stringMatching(new RegExp(`; ${less} gives 2500\\.00 INR\\.$`))] },
    });
  });

  it("returns a requested receiving_amount exactly, with fees that add up to the gross to the cent", async () => {
    const { api, payout } = await setup();
    for (const requested of ["10000", "2500.01", "33333.33", "123456.78", "499999.99", "4001.00"]) {
      const q = await api.ok("POST", PAYOUT_QUOTE, payout({ receiving_amount: requested }));
      expect(q.receiving_amount).toBe(format(parse(requested), 2));
      const feeTotal = sum(Object.values(q.fees as Record<string, string>).map(parse));
      // gross = the fiat value of the crypto sent (88 INR a USDT), rounded down to the cent.
      const gross = format(round(mul(parse(q.sending_amount), parse("88")), 2, "down"));
      expect(format(add(parse(q.receiving_amount), feeTotal))).toBe(gross);
    }
  });

  it.skipIf(!python)("agrees with Python's decimal module on payout and payin quotes in both directions", async () => {
    const { api, payout, payoutBySending, payin } = await setup();
    const cases: Parameters<typeof pythonCheck>[0] = [];
    for (const receiving_amount of ["10000", "2500.01", "33333.33", "123456.78", "499999.99", "77777.77", "2611.11"]) {
      cases.push({
        kind: "payout",
        requested: { receiving_amount },
        quote: await api.ok("POST", PAYOUT_QUOTE, payout({ receiving_amount })),
      });
    }
    for (const sending_amount of ["100", "28.928410", "28.928411", "1234.567891", "5000.5", "31.25"]) {
      cases.push({
        kind: "payout",
        requested: { sending_amount },
        quote: await api.ok("POST", PAYOUT_QUOTE, payoutBySending(sending_amount)),
      });
    }
    for (const sending_amount of ["25000.00", "100", "100.01", "4999.99", "123456.78", "500000"]) {
      cases.push({
        kind: "payin",
        requested: { sending_amount },
        quote: await api.ok("POST", PAYIN_QUOTE, payin({ sending_amount })),
      });
    }
    for (const receiving_amount of ["100", "1.5", "2.000001", "1234.567891", "5000"]) {
      cases.push({
        kind: "payin",
        requested: { receiving_amount },
        quote: await api.ok("POST", PAYIN_QUOTE, payin({ receiving_amount })),
      });
    }
    expect(pythonCheck(cases)).toEqual([]);
  });

  it("quotes a payin both ways, returning the requested amount exactly and the fees as exact JSON numbers", async () => {
    const { api, payin } = await setup();
    const bySending = await api.ok("POST", PAYIN_QUOTE, payin({ sending_amount: "25000" }));
    expect(bySending).toMatchObject({ sending_amount: "25000.00", receiving_amount: "273.146408", rate: "90.5000" });
    expect(bySending.fees).toEqual({
      client_fee_fiat: 62.5,
      client_fee_crypto: 0.690608,
      service_fee: 125,
      pg_fee: 50,
      client_gst_fiat: 11.25,
      client_gst_crypto: 0.124309,
      service_gst: 22.5,
      pg_gst: 9,
      tds: 0,
      gross_effective_exchange_rate: 91.526,
    });
    const byReceiving = await api.ok("POST", PAYIN_QUOTE, payin({ receiving_amount: "100" }));
    expect(byReceiving.receiving_amount).toBe("100.000000");
    // 100 USDT cost 9,050.00 INR net; the fees come on top and the payment is the least cent amount that covers both.
    expect(byReceiving.sending_amount).toBe("9152.61");
  });

  it("keeps every digit of an amount beyond 2^53 in error messages", async () => {
    const { api, payout, payin } = await setup();
    const neft = await api.post(PAYOUT_QUOTE, payout({ receiving_amount: BEYOND_2_53, payment_method: "NEFT" }));
    expect(neft.body).toMatchObject({
      err_code: "PAYOUT_AMOUNT_ABOVE_MAX",
      errors: {
        receiving_amount: [
          `The beneficiary must receive less than 2500000.00 INR by NEFT; ${BEYOND_2_53} gives ${BEYOND_2_53}.00 INR.`,
        ],
      },
    });
    const paid = await api.post(PAYIN_QUOTE, payin({ sending_amount: `${BEYOND_2_53}.99` }));
    expect(paid.body).toMatchObject({
      err_code: "PAYIN_AMOUNT_ABOVE_MAX",
      errors: { sending_amount: [`Pay at most 500000.00 INR by IMPS; ${BEYOND_2_53}.99 pays ${BEYOND_2_53}.99 INR.`] },
    });
    const huge = "123456789012345678901234567890.123";
    const malformed = await api.post(PAYOUT_QUOTE, payout({ receiving_amount: huge }));
    expect(malformed.body.errors.receiving_amount[0]).toContain(huge);
  });

  it("answers *_AMOUNT_ZERO_OR_NEGATIVE for every spelling of zero and for negative amounts", async () => {
    const { api, payout, payoutBySending, payin } = await setup();
    for (const amount of ["0", "0.00", "-0", "0.000000000000000000", "-0.01", `-${BEYOND_2_53}`]) {
      expect((await api.post(PAYOUT_QUOTE, payout({ receiving_amount: amount }))).body.err_code).toBe(
        "PAYOUT_AMOUNT_ZERO_OR_NEGATIVE",
      );
      expect((await api.post(PAYOUT_QUOTE, payoutBySending(amount))).body.err_code).toBe(
        "PAYOUT_AMOUNT_ZERO_OR_NEGATIVE",
      );
      expect((await api.post(PAYIN_QUOTE, payin({ receiving_amount: amount }))).body.err_code).toBe(
        "PAYIN_AMOUNT_ZERO_OR_NEGATIVE",
      );
    }
  });

  it("counts the daily limit exactly: 300,000.01 + 300,000.09 + 399,999.90 INR is 1,000,000.00, not over it", async () => {
    const { api, customer, payout } = await setup();
    // In floating point these sum to 1000000.0000000001, which a float comparison refuses.
    expect(300000.01 + 300000.09 + 399999.9).toBeGreaterThan(1_000_000);
    for (const [i, receiving_amount] of ["300000.01", "300000.09", "399999.90"].entries()) {
      const q = await api.ok("POST", PAYOUT_QUOTE, payout({ receiving_amount }));
      await api.ok("POST", PAYOUT_INITIATE, { quotation_id: q.id, client_reference_id: `limit-${i}` });
    }
    expect(await api.ok("GET", `/pos/api/v1/payout/limits/${customer.id}`)).toMatchObject({
      daily_limit: "1000000.00",
      daily_used: "1000000.00",
      daily_remaining: "0.00",
    });
    expect((await api.post(PAYOUT_QUOTE, payout({ receiving_amount: "2500.01" }))).body.err_code).toBe(
      "RISK_DAILY_LIMIT_EXCEEDED",
    );
  });

  it("matches magic amounts by exact value: 4001.00 INR and 4001.000000 USDT fail a payout, 4001.01 does not", async () => {
    const { api, payout, payoutBySending } = await setup();
    const receiver = await startReceiver();
    await api.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
    const ids: Record<string, string> = {};
    for (const [label, body] of [
      ["4001.00 INR", payout({ receiving_amount: "4001.00" })],
      ["4001.000000 USDT", payoutBySending("4001.000000")],
      ["4001.01 INR", payout({ receiving_amount: "4001.01" })],
    ] as const) {
      const q = await api.ok("POST", PAYOUT_QUOTE, body);
      ids[label] = (await api.ok("POST", PAYOUT_INITIATE, { quotation_id: q.id })).id;
    }
    await waitFor(() => receiver.deliveries.filter((d) => d.body.type === "PAYOUT").length >= 3, "three PAYOUT events");
    const eventOf = (id: string) => receiver.deliveries.find((d) => d.body.id === id)?.body.event;
    expect(eventOf(ids["4001.00 INR"]!)).toBe("FAILED");
    expect(eventOf(ids["4001.000000 USDT"]!)).toBe("FAILED");
    expect(eventOf(ids["4001.01 INR"]!)).toBe("SUCCESS");
  });

  it("puts a payin on hold for 4002.00 INR, matched by value like 4002", async () => {
    const { api, payin } = await setup();
    const q = await api.ok("POST", PAYIN_QUOTE, payin({ sending_amount: "4002.00" }));
    const order = await api.ok("POST", PAYIN_INITIATE, {
      quotation_id: q.id,
      client_reference_id: "magic-4002",
      transaction_reference_id: nextUtr(),
    });
    await waitFor(
      async () => (await api.ok("GET", `/pis/api/v1/payin/${order.id}`)).status === "ON_HOLD",
      "payin ON_HOLD",
    );
  });

  it("serves configuration bounds and rates as exact decimal strings, with crypto limits the quotation accepts", async () => {
    const { api, payoutBySending } = await setup();
    const payoutConfig = await api.ok("GET", "/pos/api/v1/payout/configuration");
    // The crypto limits buy 2,500.01 INR and 499,999.99 INR after fees (the fiat bounds are exclusive).
    expect(payoutConfig.inr).toMatchObject({
      min_fiat_amount: "2500.00",
      max_fiat_amount: "2500000.00",
      limits: { usdt: { tron: { IMPS: { min: "28.928410", max: "5785.670910" } } } },
    });
    const { min, max } = payoutConfig.inr.limits.usdt.tron.IMPS;
    expect((await api.ok("POST", PAYOUT_QUOTE, payoutBySending(min))).receiving_amount).toBe("2500.01");
    expect((await api.ok("POST", PAYOUT_QUOTE, payoutBySending(max))).receiving_amount).toBe("499999.99");
    expect((await api.post(PAYOUT_QUOTE, payoutBySending("28.928409"))).body.err_code).toBe("PAYOUT_AMOUNT_BELOW_MIN");
    expect((await api.ok("GET", "/pis/api/v1/payin/configuration")).inr.payment_methods.IMPS).toEqual({
      bank_account_type: "ACCOUNT_DETAILS",
      min_fiat_amount: "100.00",
      max_fiat_amount: "500000.00",
    });
    expect(
      await api.ok("GET", "/pis/api/v1/payin/fetch-rate", undefined, { query: { asset: "usdt", fiat: "inr" } }),
    ).toMatchObject({ rate: "90.5000" });
    expect(
      await api.ok("GET", "/pos/api/v1/payout/fetch-rate", undefined, { query: { asset: "usdc", fiat: "mxn" } }),
    ).toMatchObject({ rate: "18.2000" });
  });
});
