import { describe, expect, it } from "vitest";
import type { Logger, RequestEvent, ResponseEvent, RetryEvent } from "../src/index.js";
import { API_KEY, API_SECRET, apiError, CUSTOMER_ID, hang, ok, testClient } from "./support/fake-fetch.js";

/** A logger that keeps every line, with its fields, as text. */
function capture() {
  const lines: { level: string; text: string }[] = [];
  const logger: Required<Logger> = {
    debug: (m, f) => lines.push({ level: "debug", text: `${m} ${JSON.stringify(f ?? {})}` }),
    info: (m, f) => lines.push({ level: "info", text: `${m} ${JSON.stringify(f ?? {})}` }),
    warn: (m, f) => lines.push({ level: "warn", text: `${m} ${JSON.stringify(f ?? {})}` }),
    error: (m, f) => lines.push({ level: "error", text: `${m} ${JSON.stringify(f ?? {})}` }),
  };
  return { lines, logger };
}

describe("observability", () => {
  it("never writes the API key, the secret or a signature in any log line", async () => {
    const { lines, logger } = capture();
    const signatures: string[] = [];
    const { client, calls } = testClient(
      (request, i) => {
        signatures.push(request.headers["x-signature"]!);
        if (request.url.pathname.endsWith("/initiate") && i < 3)
          return apiError(503, "SYS_SERVICE_UNAVAILABLE", `echo ${API_KEY}`);
        if (request.url.pathname.includes("history")) return ok({ count: 0, next: null, previous: null, results: [] });
        // A hostile answer that echoes the credentials back must not leak them either.
        return apiError(400, "USR_NOT_FOUND", { key: [API_KEY], secret: API_SECRET }, `bad key ${API_KEY}`);
      },
      { logger, logLevel: "debug", timeoutMs: 1000 },
    );
    await client.payouts.initiate({ quotation_id: "q", client_reference_id: "p-1" }).catch(() => undefined);
    await client.customers.get(CUSTOMER_ID, { maxRetries: 1 }).catch(() => undefined);
    await client.raw.GET("/cms/api/v1/customer/{customer_id}", { params: { path: { customer_id: CUSTOMER_ID } } });
    const { client: timingOut } = testClient(hang, { logger, logLevel: "debug", timeoutMs: 10, maxRetries: 1 });
    await timingOut.customers.get(CUSTOMER_ID).catch(() => undefined);
    signatures.push(...calls.map((c) => c.headers["x-signature"]!));

    expect(lines.length).toBeGreaterThan(10);
    expect(new Set(lines.map((l) => l.level))).toEqual(new Set(["debug", "warn", "error"]));
    for (const { text } of lines) {
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain(API_SECRET);
      for (const signature of signatures) expect(text).not.toContain(signature);
    }
    expect(lines.some((l) => l.text.includes("[redacted]"))).toBe(true);
  });

  it("writes nothing below the chosen level", async () => {
    const { lines, logger } = capture();
    const { client } = testClient((_, i) => (i === 0 ? apiError(503, "SYS_SERVICE_UNAVAILABLE") : ok({})), {
      logger,
      logLevel: "warn",
    });
    await client.customers.get(CUSTOMER_ID);
    expect(lines.map((l) => l.level)).toEqual(["warn"]);
    expect(lines[0]!.text).toMatch(/getCustomer attempt 1 failed .*retrying/);
  });

  it("writes an error line when a call ends on a retryable failure it may not repeat", async () => {
    const { lines, logger } = capture();
    const { client } = testClient(() => apiError(500, "SYS_INTERNAL_ERROR"), { logger, logLevel: "warn" });
    await client.payouts.initiate({ quotation_id: "q" }).catch(() => undefined);
    expect(lines.map((l) => l.level)).toEqual(["error"]);
    expect(lines[0]!.text).toMatch(
      /initiatePayout failed after 1 attempt\(s\): .*not retried: without a client_reference_id/,
    );
  });

  it("writes request and response lines at debug", async () => {
    const { lines, logger } = capture();
    const { client } = testClient(() => ok({}), { logger, logLevel: "debug" });
    await client.customers.get(CUSTOMER_ID);
    expect(lines).toHaveLength(2);
    expect(lines[0]!.text).toMatch(
      new RegExp(`^exchange: GET https://exchange.test/cms/api/v1/customer/${CUSTOMER_ID} \\(attempt 1\\)`),
    );
    expect(lines[1]!.text).toMatch(
      new RegExp(`^exchange: 200 from GET https://exchange.test/cms/api/v1/customer/${CUSTOMER_ID} in \\d+ ms`),
    );
  });

  it("works with a logger that has only some methods", async () => {
    const warnings: string[] = [];
    const { client } = testClient((_, i) => (i === 0 ? apiError(429, "TOO_MANY_REQUESTS") : ok({})), {
      logger: { warn: (m) => warnings.push(m) },
      logLevel: "debug",
    });
    await client.customers.get(CUSTOMER_ID);
    expect(warnings).toHaveLength(1);
  });

  it("calls onRequest, onResponse and onRetry around every attempt", async () => {
    const events: string[] = [];
    const { client } = testClient((_, i) => (i === 0 ? apiError(503, "SYS_SERVICE_UNAVAILABLE") : ok({ id: 1 })), {
      hooks: {
        onRequest: (e: RequestEvent) => void events.push(`request ${e.operation.operationId} ${e.method} ${e.attempt}`),
        onResponse: (e: ResponseEvent) => void events.push(`response ${e.response.status} ${e.attempt}`),
        onRetry: (e: RetryEvent) => void events.push(`retry ${e.attempt} ${e.error.constructor.name}`),
      },
    });
    await client.customers.get(CUSTOMER_ID);
    expect(events).toEqual([
      "request getCustomer GET 1",
      "response 503 1",
      "retry 1 ExchangeApiError",
      "request getCustomer GET 2",
      "response 200 2",
    ]);
  });

  it("gives onRequest the exact body and lets it add unsigned headers", async () => {
    let seen: string | undefined;
    const { client, calls } = testClient(() => ok({}), {
      hooks: {
        onRequest: (e) => {
          seen = e.body;
          e.headers.traceparent = "00-abc-def-01";
        },
      },
    });
    await client.customers.create({ client_reference_id: "c", alpha_3_country_code: "IND", full_name: "A" });
    expect(seen).toBe(calls[0]!.body);
    expect(calls[0]!.headers.traceparent).toBe("00-abc-def-01");
  });

  it("fails the call with the error a hook throws", async () => {
    const { client, calls } = testClient(() => ok({}), {
      hooks: {
        onRequest: () => {
          throw new Error("hook broke");
        },
      },
    });
    await expect(client.customers.get(CUSTOMER_ID)).rejects.toThrow("hook broke");
    expect(calls).toHaveLength(0);
  });

  it("returns the raw Response with .withResponse()", async () => {
    const { client } = testClient(() => ok({ id: CUSTOMER_ID }, { headers: { "X-Request-Id": "req-42" } }));
    const { data, response } = await client.customers.create.withResponse({
      client_reference_id: "c",
      alpha_3_country_code: "IND",
      full_name: "A",
    });
    expect(data).toEqual({ id: CUSTOMER_ID });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe("req-42");
  });
});
