import { afterEach, describe, expect, it, vi } from "vitest";
import { ExchangeAbortError, ExchangeApiError, ExchangeWaitTimeoutError } from "../src/index.js";
import { apiError, BANK_ID, CUSTOMER_ID, failure, ok, testClient } from "./support/fake-fetch.js";

const PAYOUT_ID = "c4b3a291-8f7e-4d6c-9b5a-4f3e2d1c0b9a";
const PAYIN_ID = "5d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a";

/** Answers each poll with the next status of `statuses` (the last one repeats). */
function statuses(field: string, list: string[], extra: Record<string, unknown> = {}) {
  return (_: unknown, i: number) => ok({ id: "x", ...extra, [field]: list[Math.min(i, list.length - 1)] });
}

afterEach(() => {
  vi.useRealTimers();
});

describe("waiting for outcomes", () => {
  it("polls a payout until SUCCESS and returns the record", async () => {
    const { client, calls } = testClient(statuses("status", ["PROCESSING", "PROCESSING", "SUCCESS"], { utr: "UTR1" }));
    const payout = await client.payouts.waitFor(PAYOUT_ID, { intervalMs: 1 });
    expect(payout).toMatchObject({ status: "SUCCESS", utr: "UTR1" });
    expect(calls).toHaveLength(3);
    expect(calls[0]!.url.pathname).toBe(`/pos/api/v1/payout/${PAYOUT_ID}`);
  });

  it.each(["FAILED", "REFUNDED"])("stops on a payout in %s", async (final) => {
    const { client } = testClient(statuses("status", ["PROCESSING", final]));
    await expect(client.payouts.waitFor(PAYOUT_ID, { intervalMs: 1 })).resolves.toMatchObject({ status: final });
  });

  it("keeps polling a payout IN_REVIEW", async () => {
    const { client, calls } = testClient(statuses("status", ["IN_REVIEW", "IN_REVIEW", "SUCCESS"]));
    await client.payouts.waitFor(PAYOUT_ID, { intervalMs: 1 });
    expect(calls).toHaveLength(3);
  });

  it("polls a payin until a final status", async () => {
    const { client, calls } = testClient(statuses("status", ["PROCESSING", "ON_HOLD", "REFUND_INITIATED", "REFUNDED"]));
    await expect(client.payins.waitFor(PAYIN_ID, { intervalMs: 1 })).resolves.toMatchObject({ status: "REFUNDED" });
    expect(calls[0]!.url.pathname).toBe(`/pis/api/v1/payin/${PAYIN_ID}`);
    expect(calls).toHaveLength(4);
  });

  it("polls a customer until KYC is VERIFIED or FAILED", async () => {
    const { client, calls } = testClient(statuses("status", ["UNVERIFIED", "VERIFIED"]));
    await expect(client.customers.waitForKyc(CUSTOMER_ID, { intervalMs: 1 })).resolves.toMatchObject({
      status: "VERIFIED",
    });
    expect(calls[0]!.url.pathname).toBe(`/cms/api/v1/customer/${CUSTOMER_ID}`);
  });

  it("polls a bank account until VERIFIED or FAILED, through MANUAL_REVIEW", async () => {
    const { client, calls } = testClient(statuses("bank_account_status", ["PROCESSING", "MANUAL_REVIEW", "FAILED"]));
    await expect(client.banks.waitFor(CUSTOMER_ID, BANK_ID, { intervalMs: 1 })).resolves.toMatchObject({
      bank_account_status: "FAILED",
    });
    expect(calls[0]!.url.pathname).toBe(`/cms/api/v1/bank/${CUSTOMER_ID}/${BANK_ID}`);
    expect(calls).toHaveLength(3);
  });

  it("doubles the pause between polls up to maxIntervalMs", async () => {
    // The pauses asked of setTimeout, apart from the 30 s attempt timers of the requests themselves.
    const pauses: number[] = [];
    const real = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(((fn: () => void, ms?: number) => {
      if (ms !== 30_000) pauses.push(ms ?? 0);
      return real(fn, ms);
    }) as typeof setTimeout);
    try {
      const { client, calls } = testClient(
        statuses("status", ["PROCESSING", "PROCESSING", "PROCESSING", "PROCESSING", "PROCESSING", "SUCCESS"]),
      );
      await client.payouts.waitFor(PAYOUT_ID, { intervalMs: 10, maxIntervalMs: 40 });
      expect(calls).toHaveLength(6);
      expect(pauses).toEqual([10, 20, 40, 40, 40]);
    } finally {
      spy.mockRestore();
    }
  });

  it("times out with ExchangeWaitTimeoutError carrying the last record", async () => {
    const { client } = testClient(statuses("status", ["PROCESSING"], { utr: null }));
    const error = await failure(client.payouts.waitFor(PAYOUT_ID, { intervalMs: 5, timeoutMs: 60 }));
    expect(error).toBeInstanceOf(ExchangeWaitTimeoutError);
    expect(error.lastRecord).toMatchObject({ status: "PROCESSING" });
    expect(error.waitedMs).toBe(60);
  });

  it("stops waiting at once when the signal aborts", async () => {
    const { client } = testClient(statuses("status", ["PROCESSING"]));
    const controller = new AbortController();
    const done = failure(client.payouts.waitFor(PAYOUT_ID, { intervalMs: 10_000, signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    const started = Date.now();
    expect(await done).toBeInstanceOf(ExchangeAbortError);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("stops with the API error when the record cannot be read", async () => {
    const { client, calls } = testClient(() => apiError(400, "PAYOUT_INVALID_PAYOUT_ID"));
    expect(await failure(client.payouts.waitFor(PAYOUT_ID, { intervalMs: 1 }))).toBeInstanceOf(ExchangeApiError);
    expect(calls).toHaveLength(1);
  });

  it("accepts its own stop condition", async () => {
    const { client } = testClient(statuses("status", ["PROCESSING", "IN_REVIEW", "SUCCESS"]));
    const payout = await client.payouts.waitFor(PAYOUT_ID, { intervalMs: 1, until: (p) => p.status === "IN_REVIEW" });
    expect(payout.status).toBe("IN_REVIEW");
  });
});
