import { afterEach, describe, expect, it, vi } from "vitest";
import { ExchangeAbortError, ExchangeTimeoutError } from "../src/index.js";
import {
  advance,
  apiError,
  CUSTOMER_ID,
  failure,
  FAKE_TIMERS,
  hang,
  ok,
  testClient,
  until,
} from "./support/fake-fetch.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("timeouts and cancellation", () => {
  it("limits each attempt to the client's timeoutMs", async () => {
    const { client, calls } = testClient(hang, { timeoutMs: 30, maxRetries: 0 });
    const started = Date.now();
    const error = await failure(client.customers.get(CUSTOMER_ID));
    expect(error).toBeInstanceOf(ExchangeTimeoutError);
    expect(error.scope).toBe("attempt");
    expect(Date.now() - started).toBeLessThan(1000);
    expect(calls[0]!.signal?.aborted).toBe(true);
  });

  it("lets a call set its own timeoutMs", async () => {
    const { client } = testClient(hang, { timeoutMs: 60_000, maxRetries: 0 });
    const error = await failure(client.customers.get(CUSTOMER_ID, { timeoutMs: 20 }));
    expect(error.timeoutMs).toBe(20);
  });

  it("retries an attempt that timed out", async () => {
    const { client, calls } = testClient((request, i) => (i === 0 ? hang(request) : ok({ id: 1 })), { timeoutMs: 20 });
    await expect(client.customers.get(CUSTOMER_ID)).resolves.toEqual({ id: 1 });
    expect(calls).toHaveLength(2);
  });

  it("ends the whole call at deadlineMs, retries included", async () => {
    const { client, calls } = testClient(hang, { timeoutMs: 40, retryBaseMs: 10, maxRetries: 10 });
    const started = Date.now();
    const error = await failure(client.customers.get(CUSTOMER_ID, { deadlineMs: 300 }));
    const took = Date.now() - started;
    expect(error).toBeInstanceOf(ExchangeTimeoutError);
    expect(took).toBeLessThan(600);
    expect(calls.length).toBeGreaterThan(1);
    expect(calls.length).toBeLessThan(10);
  });

  it("reports a deadline that cut the last attempt short as scope deadline", async () => {
    const { client } = testClient(hang, { timeoutMs: 10_000 });
    const error = await failure(client.customers.get(CUSTOMER_ID, { deadlineMs: 50 }));
    expect(error).toBeInstanceOf(ExchangeTimeoutError);
    expect(error.scope).toBe("deadline");
    expect(error.timeoutMs).toBe(50);
  });

  it("never sleeps past the deadline: a backoff that would cross it ends the call at once", async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    const { client, calls } = testClient(() => apiError(503, "SYS_SERVICE_UNAVAILABLE"), { retryBaseMs: undefined });
    let settled = false;
    const done = failure(client.customers.get(CUSTOMER_ID, { deadlineMs: 2500 })).finally(() => (settled = true));
    await until(() => calls.length === 1);
    await advance(1300); // first backoff: 1000..1250 ms
    await until(() => calls.length === 2);
    // The second backoff (2000..2500 ms) would end after the deadline (2500 ms from the start).
    await until(() => settled);
    const error = await done;
    expect(error.status).toBe(503);
    expect(error.notRetriedReason).toMatch(/deadline/);
    expect(calls).toHaveLength(2);
  });

  it("stops at once when the caller's signal aborts during a request, and does not retry", async () => {
    const { client, calls } = testClient(hang);
    const controller = new AbortController();
    const done = failure(client.customers.get(CUSTOMER_ID, { signal: controller.signal }));
    await until(() => calls.length === 1);
    controller.abort(new Error("user left"));
    const error = await done;
    expect(error).toBeInstanceOf(ExchangeAbortError);
    expect(error.cause).toEqual(new Error("user left"));
    expect(calls).toHaveLength(1);
  });

  it("stops at once when the signal aborts during a backoff sleep", async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    const { client, calls } = testClient(() => apiError(503, "SYS_SERVICE_UNAVAILABLE"), { retryBaseMs: undefined });
    const controller = new AbortController();
    let settled = false;
    const done = failure(client.customers.get(CUSTOMER_ID, { signal: controller.signal })).finally(
      () => (settled = true),
    );
    await until(() => calls.length === 1);
    await advance(200);
    expect(settled).toBe(false);
    controller.abort();
    await until(() => settled);
    expect(await done).toBeInstanceOf(ExchangeAbortError);
    expect(calls).toHaveLength(1);
  });

  it("sends nothing when the signal is already aborted", async () => {
    const { client, calls } = testClient(() => ok({}));
    const error = await failure(client.customers.get(CUSTOMER_ID, { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(ExchangeAbortError);
    expect(calls).toHaveLength(0);
  });
});
