import { afterEach, describe, expect, it, vi } from "vitest";
import { ExchangeApiError, ExchangeNetworkError, ExchangeResponseError, type RetryEvent } from "../src/index.js";
import { backoffDelay, parseRetryAfter, retryDelay, shouldRetry } from "../src/retry.js";
import { advance, apiError, CUSTOMER_ID, failure, FAKE_TIMERS, ok, testClient, until } from "./support/fake-fetch.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("retries", () => {
  it.each([
    [429, "TOO_MANY_REQUESTS"],
    [500, "SYS_INTERNAL_ERROR"],
    [503, "SYS_SERVICE_UNAVAILABLE"],
    [400, "NET_TIMEOUT"],
  ])("retries HTTP %i %s and returns the later success", async (status, code) => {
    const { client, calls } = testClient((_, i) => (i === 0 ? apiError(status, code) : ok({ id: CUSTOMER_ID })));
    await expect(client.customers.get(CUSTOMER_ID)).resolves.toEqual({ id: CUSTOMER_ID });
    expect(calls).toHaveLength(2);
  });

  it("retries network errors", async () => {
    const { client, calls } = testClient((_, i) =>
      i < 2 ? Promise.reject(new TypeError("fetch failed")) : ok({ id: 1 }),
    );
    await expect(client.customers.get(CUSTOMER_ID)).resolves.toEqual({ id: 1 });
    expect(calls).toHaveLength(3);
  });

  it("never retries RISK_AML_FAILED and marks it for escalation", async () => {
    const { client, calls } = testClient(() => apiError(400, "RISK_AML_FAILED", {}, "AML SCREENING FAILED"));
    const error = await failure(client.payouts.getLimits(CUSTOMER_ID));
    expect(calls).toHaveLength(1);
    expect(error.action).toBe("escalate");
  });

  it.each([
    [400, "REQ_FIELD_MISSING"],
    [400, "USR_UNVERIFIED"],
    [401, "AUTH_INVALID_SIGNATURE"],
    [404, "NOT_FOUND"],
  ])("does not retry HTTP %i %s", async (status, code) => {
    const { client, calls } = testClient(() => apiError(status, code));
    const error = await failure(client.customers.get(CUSTOMER_ID));
    expect(error).toBeInstanceOf(ExchangeApiError);
    expect(error.action).toBe("fix");
    expect(calls).toHaveLength(1);
  });

  it("makes four attempts in all by default (maxRetries 3) and reports them", async () => {
    const { client, calls } = testClient(() => apiError(503, "SYS_SERVICE_UNAVAILABLE"));
    const error = await failure(client.customers.get(CUSTOMER_ID));
    expect(calls).toHaveLength(4);
    expect(error.attempts).toBe(4);
  });

  it("takes maxRetries from the client and from the call", async () => {
    const { client, calls } = testClient(() => apiError(500, "SYS_INTERNAL_ERROR"), { maxRetries: 1 });
    await failure(client.customers.get(CUSTOMER_ID));
    expect(calls).toHaveLength(2);
    await failure(client.customers.get(CUSTOMER_ID, { maxRetries: 0 }));
    expect(calls).toHaveLength(3);
  });

  it("marks a 5xx that keeps recurring for escalation", async () => {
    const { client } = testClient(() => apiError(500, "SYS_INTERNAL_ERROR"));
    const error = await failure(client.customers.get(CUSTOMER_ID));
    expect(error.action).toBe("escalate");
  });

  it("retries UNKNOWN_ERROR without field errors once only", async () => {
    const { client, calls } = testClient(() => apiError(400, "UNKNOWN_ERROR"));
    await failure(client.customers.get(CUSTOMER_ID));
    expect(calls).toHaveLength(2);
  });

  it("does not retry UNKNOWN_ERROR that names fields", async () => {
    const { client, calls } = testClient(() =>
      apiError(400, "UNKNOWN_ERROR", { postal_code: ["This field is required."] }),
    );
    const error = await failure(client.customers.get(CUSTOMER_ID));
    expect(error.action).toBe("fix");
    expect(calls).toHaveLength(1);
  });

  it("retries a gateway's non-JSON 502 and 504", async () => {
    const { client, calls } = testClient((_, i) =>
      i === 0
        ? new Response("<h1>502</h1>", { status: 502 })
        : i === 1
          ? new Response("", { status: 504 })
          : ok({ id: 1 }),
    );
    await expect(client.customers.get(CUSTOMER_ID)).resolves.toEqual({ id: 1 });
    expect(calls).toHaveLength(3);
  });

  it("does not retry a non-JSON 400", async () => {
    const { client, calls } = testClient(() => new Response("bad", { status: 400 }));
    expect(await failure(client.customers.get(CUSTOMER_ID))).toBeInstanceOf(ExchangeResponseError);
    expect(calls).toHaveLength(1);
  });

  it("waits 1 s, 2 s and 4 s by default, each plus at most 25 % jitter", async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    const delays: number[] = [];
    const { client, calls } = testClient(() => Promise.reject(new TypeError("fetch failed")), {
      retryBaseMs: undefined,
      hooks: { onRetry: (e: RetryEvent) => void delays.push(e.delayMs) },
    });
    let settled = false;
    const done = failure(client.customers.get(CUSTOMER_ID)).finally(() => (settled = true));
    await until(() => calls.length === 1);
    await advance(999);
    expect(calls).toHaveLength(1);
    for (let i = 0; i < 400 && !settled; i++) await advance(100);
    expect(await done).toBeInstanceOf(ExchangeNetworkError);
    expect(calls).toHaveLength(4);
    expect(delays).toHaveLength(3);
    [1000, 2000, 4000].forEach((base, i) => {
      expect(delays[i]).toBeGreaterThanOrEqual(base);
      expect(delays[i]).toBeLessThanOrEqual(base * 1.25);
    });
  });

  it("computes backoff as base times two to the retry, plus jitter from the random source", () => {
    expect(backoffDelay(0, 1000, () => 0)).toBe(1000);
    expect(backoffDelay(1, 1000, () => 0)).toBe(2000);
    expect(backoffDelay(2, 1000, () => 1)).toBe(5000);
    expect(backoffDelay(3, 1000, () => 0.5)).toBe(9000);
  });

  it("honours Retry-After in seconds", async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    const { client, calls } = testClient((_, i) =>
      i === 0 ? apiError(429, "TOO_MANY_REQUESTS", {}, "slow down", { "Retry-After": "3" }) : ok({ id: 1 }),
    );
    const done = client.customers.get(CUSTOMER_ID);
    await until(() => calls.length === 1);
    await advance(2999);
    expect(calls).toHaveLength(1);
    await advance(1);
    await expect(done).resolves.toEqual({ id: 1 });
    expect(calls).toHaveLength(2);
  });

  it("honours Retry-After given as an HTTP date", async () => {
    vi.useFakeTimers({ ...FAKE_TIMERS, now: new Date("2026-03-01T10:00:00Z") });
    const { client, calls } = testClient((_, i) =>
      i === 0
        ? apiError(503, "SYS_SERVICE_UNAVAILABLE", {}, "busy", { "Retry-After": "Sun, 01 Mar 2026 10:00:05 GMT" })
        : ok({ id: 1 }),
    );
    const done = client.customers.get(CUSTOMER_ID);
    await until(() => calls.length === 1);
    await advance(4900);
    expect(calls).toHaveLength(1);
    await advance(100);
    await expect(done).resolves.toEqual({ id: 1 });
  });

  it("parses Retry-After seconds, dates and garbage", () => {
    const now = Date.parse("2026-03-01T10:00:00Z");
    expect(parseRetryAfter("2", now)).toBe(2000);
    expect(parseRetryAfter("Sun, 01 Mar 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Sun, 01 Mar 2026 09:00:00 GMT", now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it("does not retry when Retry-After reaches past the deadline, and says why", async () => {
    const { client, calls } = testClient(
      () => apiError(429, "TOO_MANY_REQUESTS", {}, "slow down", { "Retry-After": "5" }),
      {
        deadlineMs: 2000,
      },
    );
    const started = Date.now();
    const error = await failure(client.customers.get(CUSTOMER_ID));
    expect(Date.now() - started).toBeLessThan(500);
    expect(calls).toHaveLength(1);
    expect(error.notRetriedReason).toMatch(/deadline/);
    expect(error.message).toMatch(/not retried: the deadline/);
  });

  it("does not wait for a Retry-After longer than a minute", async () => {
    const { client, calls } = testClient(() =>
      apiError(503, "SYS_SERVICE_UNAVAILABLE", {}, "busy", { "Retry-After": "3600" }),
    );
    const error = await failure(client.customers.get(CUSTOMER_ID));
    expect(calls).toHaveLength(1);
    expect(error.notRetriedReason).toMatch(/Retry-After asks for 3600 s/);
  });
});

describe("Retry-After with a floor and a ceiling", () => {
  const now = Date.parse("2026-03-01T10:00:00Z");
  const noJitter = () => 0;

  it.each([
    ["0", 1000],
    ["-1", 1000],
    ["Sun, 01 Mar 2026 09:59:00 GMT", 1000],
    ["1, 2", 1000],
    ["soon", 1000],
    ["2.5", 1000],
  ])("waits at least the first backoff step for Retry-After %j", (header, expected) => {
    expect(retryDelay(header, 1, 1000, Infinity, now, noJitter)).toBe(expected);
  });

  it("falls back to the growing backoff for a negative, past or malformed Retry-After", () => {
    for (const header of ["-1", "Sun, 01 Mar 2026 09:59:00 GMT", "1, 2"]) {
      expect(retryDelay(header, 3, 1000, Infinity, now, noJitter), header).toBe(4000);
    }
  });

  it("keeps the floor for a valid Retry-After of 0 on later attempts too", () => {
    expect(retryDelay("0", 3, 1000, Infinity, now, noJitter)).toBe(1000);
  });

  it("honours a valid Retry-After above the floor", () => {
    expect(retryDelay("3", 1, 1000, Infinity, now)).toBe(3000);
    expect(retryDelay("Sun, 01 Mar 2026 10:00:05 GMT", 1, 1000, Infinity, now)).toBe(5000);
  });

  it("does not wait past the deadline", () => {
    expect(retryDelay("5", 1, 1000, now + 4000, now)).toMatch(/deadline/);
    expect(retryDelay("0", 1, 1000, now + 500, now)).toMatch(/deadline/);
  });

  it("does not read obsolete or partial dates as dates", () => {
    expect(parseRetryAfter("1, 2", now)).toBeUndefined();
    expect(parseRetryAfter("-1", now)).toBeUndefined();
    expect(parseRetryAfter("Sunday, 01-Mar-26 10:00:05 GMT", now)).toBeUndefined();
    expect(parseRetryAfter("2026-03-01T10:00:05Z", now)).toBeUndefined();
  });

  it.each(["0", "-1", "Sun, 01 Mar 2026 09:59:00 GMT", "1, 2"])(
    "leaves at least a second between requests when each 429 says Retry-After %j",
    async (header) => {
      vi.useFakeTimers({ ...FAKE_TIMERS, now: new Date("2026-03-01T10:00:00Z") });
      const sentAt: number[] = [];
      const { client, calls } = testClient(
        (_, i) => {
          sentAt.push(Date.now());
          return i < 3 ? apiError(429, "TOO_MANY_REQUESTS", {}, "slow down", { "Retry-After": header }) : ok({ id: 1 });
        },
        { retryBaseMs: 1000 },
      );
      const done = client.customers.get(CUSTOMER_ID);
      await until(() => calls.length === 1);
      await advance(999, 10);
      expect(calls).toHaveLength(1);
      await advance(10_000);
      await expect(done).resolves.toEqual({ id: 1 });
      expect(calls).toHaveLength(4);
      const gaps = sentAt.slice(1).map((t, i) => t - sentAt[i]!);
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(1000);
    },
  );
});

describe("shouldRetry", () => {
  it("retries a retryable failure up to maxRetries times", () => {
    expect([1, 2, 3, 4].map((n) => shouldRetry(true, "SYS_INTERNAL_ERROR", n, 3))).toEqual([true, true, true, false]);
  });

  it("retries UNKNOWN_ERROR once only, and nothing with maxRetries 0", () => {
    expect([1, 2].map((n) => shouldRetry(true, "UNKNOWN_ERROR", n, 3))).toEqual([true, false]);
    expect(shouldRetry(true, "UNKNOWN_ERROR", 1, 0)).toBe(false);
  });

  it("never retries a failure outside the retry class", () => {
    expect(shouldRetry(false, "REQ_FIELD_MISSING", 1, 3)).toBe(false);
  });
});
