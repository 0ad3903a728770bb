import { canonicalize } from "@exchange-kit/signing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { API_KEY, apiError, BANK_ID, CUSTOMER_ID, expectedSignature, ok, testClient } from "./support/fake-fetch.js";

const NEW_CUSTOMER = {
  full_name: "Zoë Ångström",
  client_reference_id: "cust-1",
  alpha_3_country_code: "SWE",
} as const;

afterEach(() => {
  vi.useRealTimers();
});

describe("signing", () => {
  it("sends exactly the canonical body it signed", async () => {
    const { client, calls } = testClient(() => ok({ id: CUSTOMER_ID }));
    await client.customers.create(NEW_CUSTOMER);
    const [call] = calls;
    expect(call!.body).toBe(canonicalize(NEW_CUSTOMER));
    expect(call!.body).toBe(
      '{"alpha_3_country_code":"SWE","client_reference_id":"cust-1","full_name":"Zo\\u00eb \\u00c5ngstr\\u00f6m"}',
    );
    expect(call!.headers["x-signature"]).toBe(expectedSignature(call!.headers["x-timestamp"]!, call!.body!));
  });

  it("sends the API key, a Unix-seconds timestamp and a JSON content type with a body", async () => {
    const { client, calls } = testClient(() => ok({ id: CUSTOMER_ID }));
    const before = Math.floor(Date.now() / 1000);
    await client.customers.create(NEW_CUSTOMER);
    const headers = calls[0]!.headers;
    expect(headers["x-api-key"]).toBe(API_KEY);
    expect(Number(headers["x-timestamp"])).toBeGreaterThanOrEqual(before);
    expect(Number(headers["x-timestamp"])).toBeLessThanOrEqual(before + 2);
    expect(headers["content-type"]).toBe("application/json");
  });

  it("signs {} for GET and sends no body and no content type", async () => {
    const { client, calls } = testClient(() => ok({ id: CUSTOMER_ID }));
    await client.customers.get(CUSTOMER_ID);
    const call = calls[0]!;
    expect(call.method).toBe("GET");
    expect(call.body).toBeUndefined();
    expect(call.headers["content-type"]).toBeUndefined();
    expect(call.headers["x-signature"]).toBe(expectedSignature(call.headers["x-timestamp"]!, "{}"));
  });

  it("signs {} for DELETE and sends no body", async () => {
    const { client, calls } = testClient(() => ok({ id: BANK_ID }));
    await client.banks.delete(CUSTOMER_ID, BANK_ID);
    const call = calls[0]!;
    expect(call.method).toBe("DELETE");
    expect(call.url.pathname).toBe(`/cms/api/v1/bank/${CUSTOMER_ID}/${BANK_ID}/delete`);
    expect(call.body).toBeUndefined();
    expect(call.headers["x-signature"]).toBe(expectedSignature(call.headers["x-timestamp"]!, "{}"));
  });

  it("does not sign query parameters", async () => {
    const { client, calls } = testClient(() => ok({ count: 0, next: null, previous: null, results: [] }));
    await client.banks.list(CUSTOMER_ID, { page: 2, per_page: 50 });
    await client.banks.list(CUSTOMER_ID);
    const [withQuery, without] = calls;
    expect(withQuery!.url.search).toBe("?page=2&per_page=50");
    expect(withQuery!.headers["x-signature"]).toBe(expectedSignature(withQuery!.headers["x-timestamp"]!, "{}"));
    expect(without!.headers["x-signature"]).toBe(expectedSignature(without!.headers["x-timestamp"]!, "{}"));
  });

  it("signs every retry afresh with a new timestamp", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-03-01T00:00:00Z") });
    const { client, calls } = testClient((_, i) => {
      vi.setSystemTime(Date.now() + 5000); // the clock moves between attempts
      return i < 2 ? apiError(503, "SYS_SERVICE_UNAVAILABLE") : ok({ id: CUSTOMER_ID });
    });
    await client.customers.create(NEW_CUSTOMER);
    expect(calls).toHaveLength(3);
    const stamps = calls.map((c) => c.headers["x-timestamp"]);
    expect(new Set(stamps).size).toBe(3);
    for (const call of calls) {
      expect(call.body).toBe(canonicalize(NEW_CUSTOMER));
      expect(call.headers["x-signature"]).toBe(expectedSignature(call.headers["x-timestamp"]!, call.body!));
    }
  });

  it("does not let caller headers replace the authentication headers", async () => {
    const { client, calls } = testClient(() => ok({ id: CUSTOMER_ID }));
    await client.customers.get(CUSTOMER_ID, { headers: { "X-API-KEY": "other", "X-Trace": "t-1" } });
    expect(calls[0]!.headers["x-api-key"]).toBe(API_KEY);
    expect(calls[0]!.headers["x-trace"]).toBe("t-1");
  });

  it("sends a User-Agent naming the package", async () => {
    const { client, calls } = testClient(() => ok({ id: CUSTOMER_ID }));
    await client.customers.get(CUSTOMER_ID);
    expect(calls[0]!.headers["user-agent"]).toMatch(/^exchange-kit-client\/\d+\.\d+\.\d+/);
  });
});
