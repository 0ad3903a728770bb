import { afterEach, describe, expect, it, vi } from "vitest";
import { createExchangeClient, ExchangeConfigurationError } from "../src/index.js";
import { API_KEY, API_SECRET, BASE_URL, CUSTOMER_ID, fakeFetch, ok } from "./support/fake-fetch.js";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe("configuration", () => {
  it("reads the credentials and base URL from EXCHANGE_API_KEY, EXCHANGE_API_SECRET and EXCHANGE_BASE_URL", async () => {
    vi.stubEnv("EXCHANGE_API_KEY", API_KEY);
    vi.stubEnv("EXCHANGE_API_SECRET", API_SECRET);
    vi.stubEnv("EXCHANGE_BASE_URL", `${BASE_URL}/`);
    const fake = fakeFetch(() => ok({}));
    const client = createExchangeClient({ fetch: fake.fetch });
    await client.customers.get(CUSTOMER_ID);
    expect(fake.calls[0]!.url.href).toBe(`${BASE_URL}/cms/api/v1/customer/${CUSTOMER_ID}`);
    expect(fake.calls[0]!.headers["x-api-key"]).toBe(API_KEY);
  });

  it("prefers options over the environment", async () => {
    vi.stubEnv("EXCHANGE_API_KEY", "from-env");
    const fake = fakeFetch(() => ok({}));
    const client = createExchangeClient({
      baseUrl: BASE_URL,
      apiKey: "from-options",
      apiSecret: API_SECRET,
      fetch: fake.fetch,
    });
    await client.customers.get(CUSTOMER_ID);
    expect(fake.calls[0]!.headers["x-api-key"]).toBe("from-options");
  });

  it.each([
    ["apiKey", "EXCHANGE_API_KEY"],
    ["apiSecret", "EXCHANGE_API_SECRET"],
    ["baseUrl", "EXCHANGE_BASE_URL"],
  ])("throws at construction when %s is missing, naming %s", (option, variable) => {
    vi.stubEnv("EXCHANGE_API_KEY", "");
    vi.stubEnv("EXCHANGE_API_SECRET", "");
    vi.stubEnv("EXCHANGE_BASE_URL", "");
    const options: Record<string, string> = { apiKey: API_KEY, apiSecret: API_SECRET, baseUrl: BASE_URL };
    delete options[option];
    expect(() => createExchangeClient(options)).toThrow(ExchangeConfigurationError);
    expect(() => createExchangeClient(options)).toThrow(new RegExp(`${option} is missing.*${variable}`));
  });

  it("works where there is no process, as on Workers", async () => {
    vi.stubGlobal("process", undefined);
    let client: ReturnType<typeof createExchangeClient> | undefined;
    let missing: unknown;
    try {
      client = createExchangeClient({
        baseUrl: BASE_URL,
        apiKey: API_KEY,
        apiSecret: API_SECRET,
        fetch: fakeFetch(() => ok({})).fetch,
      });
      createExchangeClient({ baseUrl: BASE_URL, apiKey: API_KEY });
    } catch (error) {
      missing = error;
    } finally {
      vi.unstubAllGlobals();
    }
    expect(client).toBeDefined();
    expect(missing).toBeInstanceOf(ExchangeConfigurationError);
  });

  it("refuses a base URL that is not http(s)", () => {
    expect(() => createExchangeClient({ baseUrl: "ftp://x", apiKey: API_KEY, apiSecret: API_SECRET })).toThrow(
      /http\(s\) URL/,
    );
    expect(() => createExchangeClient({ baseUrl: "exchange.test", apiKey: API_KEY, apiSecret: API_SECRET })).toThrow(
      ExchangeConfigurationError,
    );
  });

  it("refuses nonsense numbers", () => {
    const base = { baseUrl: BASE_URL, apiKey: API_KEY, apiSecret: API_SECRET };
    expect(() => createExchangeClient({ ...base, maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => createExchangeClient({ ...base, timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => createExchangeClient({ ...base, deadlineMs: Number.NaN })).toThrow(/deadlineMs/);
  });

  it("keeps a path prefix of the base URL", async () => {
    const fake = fakeFetch(() => ok({}));
    const client = createExchangeClient({
      baseUrl: `${BASE_URL}/proxy/`,
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      fetch: fake.fetch,
    });
    await client.customers.get(CUSTOMER_ID);
    expect(fake.calls[0]!.url.pathname).toBe(`/proxy/cms/api/v1/customer/${CUSTOMER_ID}`);
  });

  it("refuses to run where window and document exist", () => {
    vi.stubGlobal("window", {});
    vi.stubGlobal("document", {});
    expect(() => createExchangeClient({ baseUrl: BASE_URL, apiKey: API_KEY, apiSecret: API_SECRET })).toThrow(
      /refusing to run in a browser/,
    );
  });

  it("runs in a browser-like place with dangerouslyAllowBrowser", async () => {
    vi.stubGlobal("window", {});
    vi.stubGlobal("document", {});
    const fake = fakeFetch(() => ok({ id: 1 }));
    const client = createExchangeClient({
      baseUrl: BASE_URL,
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      fetch: fake.fetch,
      dangerouslyAllowBrowser: true,
    });
    await expect(client.customers.get(CUSTOMER_ID)).resolves.toEqual({ id: 1 });
  });

  it("uses the platform fetch when none is given", async () => {
    const fake = fakeFetch(() => ok({ id: 2 }));
    vi.stubGlobal("fetch", fake.fetch);
    const client = createExchangeClient({ baseUrl: BASE_URL, apiKey: API_KEY, apiSecret: API_SECRET });
    await expect(client.customers.get(CUSTOMER_ID)).resolves.toEqual({ id: 2 });
  });
});
