// The ranges of the client's options: a pure decision per option, tested as a table, and where it is applied (at
// construction for the client's options, before sending for a call's own).
import { describe, expect, it } from "vitest";
import { createExchangeClient, ExchangeConfigurationError, ExchangeValidationError } from "../src/index.js";
import { checkBaseUrl, checkLogLevel, checkUserAgent, outOfBounds, type BoundedOption } from "../src/options-bounds.js";
import { API_KEY, API_SECRET, BASE_URL, CUSTOMER_ID, failure, ok, testClient } from "./support/fake-fetch.js";

const cases: [BoundedOption, unknown, string | undefined][] = [
  ["maxRetries", undefined, undefined],
  ["maxRetries", 0, undefined],
  ["maxRetries", 10, undefined],
  ["maxRetries", 11, "maxRetries must be an integer from 0 to 10, got 11"],
  ["maxRetries", -1, "maxRetries must be an integer from 0 to 10, got -1"],
  ["maxRetries", 1.5, "maxRetries must be an integer from 0 to 10, got 1.5"],
  ["maxRetries", Infinity, "maxRetries must be an integer from 0 to 10, got Infinity"],
  ["maxRetries", Number.NaN, "maxRetries must be an integer from 0 to 10, got NaN"],
  ["maxRetries", "3", 'maxRetries must be an integer from 0 to 10, got "3"'],
  ["maxRetries", null, "maxRetries must be an integer from 0 to 10, got null"],
  ["timeoutMs", 1, undefined],
  ["timeoutMs", 2.5, undefined],
  ["timeoutMs", Infinity, undefined],
  ["timeoutMs", 0, "timeoutMs must be a number >= 1 (Infinity allowed), got 0"],
  ["timeoutMs", -Infinity, "timeoutMs must be a number >= 1 (Infinity allowed), got -Infinity"],
  ["timeoutMs", Number.NaN, "timeoutMs must be a number >= 1 (Infinity allowed), got NaN"],
  ["deadlineMs", 50, undefined],
  ["deadlineMs", Infinity, undefined],
  ["deadlineMs", 0.5, "deadlineMs must be a number >= 1 (Infinity allowed), got 0.5"],
  ["retryBaseMs", 1, undefined],
  ["retryBaseMs", 60_000, undefined],
  ["retryBaseMs", 0, "retryBaseMs must be a number from 1 to 60000, got 0"],
  ["retryBaseMs", 60_001, "retryBaseMs must be a number from 1 to 60000, got 60001"],
  ["retryBaseMs", Infinity, "retryBaseMs must be a number from 1 to 60000, got Infinity"],
  ["historyLookupPages", 1, undefined],
  ["historyLookupPages", 100, undefined],
  ["historyLookupPages", 0, "historyLookupPages must be an integer from 1 to 100, got 0"],
  ["historyLookupPages", 101, "historyLookupPages must be an integer from 1 to 100, got 101"],
  ["maxResponseBytes", 1024, undefined],
  ["maxResponseBytes", 2 ** 30, undefined],
  ["maxResponseBytes", 1023, "maxResponseBytes must be an integer from 1024 to 1073741824, got 1023"],
  ["maxResponseBytes", 2 ** 30 + 1, "maxResponseBytes must be an integer from 1024 to 1073741824, got 1073741825"],
  ["maxResponseBytes", 4096.5, "maxResponseBytes must be an integer from 1024 to 1073741824, got 4096.5"],
  ["maxResponseBytes", Infinity, "maxResponseBytes must be an integer from 1024 to 1073741824, got Infinity"],
];

describe("outOfBounds", () => {
  it.each(cases)("%s = %s: %s", (option, value, expected) => {
    expect(outOfBounds(option, value)).toBe(expected);
  });
});

describe("checkBaseUrl", () => {
  it.each([
    ["https://sandbox.exchange.example", "https://sandbox.exchange.example"],
    ["https://sandbox.exchange.example///", "https://sandbox.exchange.example"],
    ["http://127.0.0.1:4010/proxy/", "http://127.0.0.1:4010/proxy"],
  ])("accepts %s as %s", (text, expected) => {
    expect(checkBaseUrl(text)).toBe(expected);
  });

  it.each([
    ["exchange.test", "baseUrl must be an http(s) URL, got exchange.test"],
    ["ftp://exchange.test", "baseUrl must be an http(s) URL, got a ftp: URL"],
    [
      "https://user:pa55@exchange.test",
      "baseUrl must be without credentials (user:password@): pass apiKey and apiSecret instead",
    ],
    ["https://exchange.test/?token=abc", "baseUrl must be without a query or a fragment: the paths are appended to it"],
    ["https://exchange.test/#x", "baseUrl must be without a query or a fragment: the paths are appended to it"],
    ["https://exchange.test/?", "baseUrl must be without a query or a fragment: the paths are appended to it"],
  ])("refuses %s", (text, message) => {
    expect(() => checkBaseUrl(text)).toThrow(new ExchangeConfigurationError(message, "baseUrl"));
  });

  // The table above shows these throw; their messages must not carry what the URL held.
  it.each(["https://user:pa55@exchange.test", "https://exchange.test/?token=abc"])(
    "does not repeat the credentials or the query of %s in its error",
    (text) => {
      expect(() => checkBaseUrl(text)).not.toThrow(/pa55|abc/);
    },
  );
});

describe("checkLogLevel", () => {
  it.each([
    [undefined, "info"],
    ["debug", "debug"],
    ["off", "off"],
  ])("reads %j as %j", (value, expected) => {
    expect(checkLogLevel(value)).toBe(expected);
  });

  it.each(["warning", "INFO", 1])("refuses %j, listing the levels", (value) => {
    expect(() => checkLogLevel(value)).toThrow(
      /^logLevel must be one of "debug", "info", "warn", "error", "off", got /,
    );
  });
});

describe("checkUserAgent", () => {
  it.each([
    [undefined, "default/1"],
    ["my-app/1.0 (ops@example.com)", "my-app/1.0 (ops@example.com)"],
    ["tab\tseparated", "tab\tseparated"],
  ])("reads %j as %j", (value, expected) => {
    expect(checkUserAgent(value, "default/1")).toBe(expected);
  });

  it.each(["", "  ", "app\r\nX-Injected: 1", "nul\0", 42])("refuses %j", (value) => {
    expect(() => checkUserAgent(value, "default/1")).toThrow(/^userAgent must be a non-empty header value/);
  });
});

describe("createExchangeClient", () => {
  const base = { baseUrl: BASE_URL, apiKey: API_KEY, apiSecret: API_SECRET };

  it("refuses maxRetries: Infinity with retryBaseMs: 0, naming the option and its range", () => {
    let error: ExchangeConfigurationError | undefined;
    try {
      createExchangeClient({ ...base, maxRetries: Infinity, retryBaseMs: 0 });
    } catch (e) {
      error = e as ExchangeConfigurationError;
    }
    expect(error).toBeInstanceOf(ExchangeConfigurationError);
    expect(error!.option).toBe("maxRetries");
    expect(error!.message).toBe("maxRetries must be an integer from 0 to 10, got Infinity");
  });

  it.each([
    ["retryBaseMs", { retryBaseMs: 0 }],
    ["historyLookupPages", { historyLookupPages: 1000 }],
    ["maxResponseBytes", { maxResponseBytes: 0 }],
    ["timeoutMs", { timeoutMs: -5 }],
    ["baseUrl", { baseUrl: "https://exchange.test/?a=1" }],
    ["logLevel", { logLevel: "warning" as never }],
    ["userAgent", { userAgent: "a\nb" }],
  ])("refuses a %s out of its range at construction", (option, options) => {
    expect(() => createExchangeClient({ ...base, ...options })).toThrow(expect.objectContaining({ option }));
  });

  it("accepts the documented timeoutMs: Infinity", () => {
    expect(() => createExchangeClient({ ...base, timeoutMs: Infinity, deadlineMs: Infinity })).not.toThrow();
  });
});

describe("a call's own options", () => {
  it("refuses maxRetries: Infinity before sending anything", async () => {
    const { client, calls } = testClient(() => ok({}));
    const error = await failure(client.customers.get(CUSTOMER_ID, { maxRetries: Infinity }));
    expect(error).toBeInstanceOf(ExchangeValidationError);
    expect(error.fieldErrors).toEqual({ maxRetries: ["maxRetries must be an integer from 0 to 10, got Infinity"] });
    expect(calls).toHaveLength(0);
  });

  it("refuses a timeoutMs of 0 on client.request before sending anything", async () => {
    const { client, calls } = testClient(() => ok({}));
    const error = await failure(client.request("GET", "/cms/api/v1/customer/list", { timeoutMs: 0 }));
    expect(error).toBeInstanceOf(ExchangeValidationError);
    expect(Object.keys(error.fieldErrors)).toEqual(["timeoutMs"]);
    expect(calls).toHaveLength(0);
  });
});
