import { inspect } from "node:util";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  ExchangeApiError,
  ExchangeError,
  ExchangeNetworkError,
  ExchangeResponseError,
  ExchangeTimeoutError,
  ExchangeValidationError,
  isExchangeApiError,
  type ErrCode,
} from "../src/index.js";
import { classifyApiError, normalizeFieldErrors } from "../src/errors.js";
import { API_KEY, API_SECRET, apiError, CUSTOMER_ID, failure, hang, json, testClient } from "./support/fake-fetch.js";

describe("errors", () => {
  it("turns an error envelope into ExchangeApiError with status, code, message, field errors, operation and body", async () => {
    const body = {
      status: false,
      message: "Customer not found or access denied",
      data: null,
      err_code: "USR_NOT_FOUND",
      errors: { customer_id: ["Customer not found"] },
    };
    const { client } = testClient(() => json(body, { status: 400 }));
    const error = (await failure(client.customers.get(CUSTOMER_ID))) as ExchangeApiError;
    expect(error).toBeInstanceOf(ExchangeApiError);
    expect(error.status).toBe(400);
    expect(error.errCode).toBe("USR_NOT_FOUND");
    expect(error.message).toBe("Customer not found or access denied");
    expect(error.fieldErrors).toEqual({ customer_id: ["Customer not found"] });
    expect(error.operation).toEqual({
      operationId: "getCustomer",
      method: "GET",
      path: "/cms/api/v1/customer/{customer_id}",
    });
    expect(error.body).toEqual(body);
    expect(error.action).toBe("fix");
  });

  it("types errCode as the spec's ErrCode union", () => {
    expectTypeOf<ExchangeApiError["errCode"]>().toEqualTypeOf<ErrCode | undefined>();
  });

  it("reads the remittance quotation's field errors from its `error` key", async () => {
    const { client } = testClient(() =>
      json(
        { status: false, message: "remitter_id is required", error: { remitter_id: ["This field is required."] } },
        { status: 400 },
      ),
    );
    const error = (await failure(
      client.payouts.createRemittanceQuotation({
        asset: "USDT",
        fiat: "INR",
        customer_id: CUSTOMER_ID,
        bank_id: CUSTOMER_ID,
        risk_parameters: {},
        network: "tron",
        payment_method: "IMPS",
        sending_amount: "100",
        remitter_id: CUSTOMER_ID,
      }),
    )) as ExchangeApiError;
    expect(error.errCode).toBeUndefined();
    expect(error.fieldErrors).toEqual({ remitter_id: ["This field is required."] });
  });

  it("normalizes errors given as a string, an empty object, nothing, plain strings and nested objects", () => {
    expect(normalizeFieldErrors("Internal Server Error")).toEqual({ non_field_errors: ["Internal Server Error"] });
    expect(normalizeFieldErrors({})).toEqual({});
    expect(normalizeFieldErrors("")).toEqual({});
    expect(normalizeFieldErrors(undefined)).toEqual({});
    expect(normalizeFieldErrors(null)).toEqual({});
    expect(normalizeFieldErrors({ phone: "Invalid phone" })).toEqual({ phone: ["Invalid phone"] });
    expect(normalizeFieldErrors({ identifiers: { br_cpf: ["required"] } })).toEqual({
      "identifiers.br_cpf": ["required"],
    });
    expect(normalizeFieldErrors(["a", "b"])).toEqual({ non_field_errors: ["a", "b"] });
    expect(normalizeFieldErrors({ date_range: ["both"], limit_exceeded: ["3 max"] })).toEqual({
      date_range: ["both"],
      limit_exceeded: ["3 max"],
    });
  });

  it("classifies codes by the document's handling classes", () => {
    expect(classifyApiError(400, "REQ_FIELD_MISSING", {})).toBe("fix");
    expect(classifyApiError(401, "AUTH_INVALID_SIGNATURE", {})).toBe("fix");
    expect(classifyApiError(400, "RISK_EDD_REQUIRED", {})).toBe("fix");
    expect(classifyApiError(400, "RISK_AML_FAILED", {})).toBe("escalate");
    expect(classifyApiError(400, "NET_TIMEOUT", {})).toBe("retry");
    expect(classifyApiError(429, "TOO_MANY_REQUESTS", {})).toBe("retry");
    expect(classifyApiError(500, "SYS_INTERNAL_ERROR", {})).toBe("retry");
    expect(classifyApiError(503, "SYS_SERVICE_UNAVAILABLE", {})).toBe("retry");
    expect(classifyApiError(400, "UNKNOWN_ERROR", {})).toBe("retry");
    expect(classifyApiError(400, "UNKNOWN_ERROR", { postal_code: ["required"] })).toBe("fix");
    expect(classifyApiError(404, "NOT_FOUND", {})).toBe("fix");
  });

  it("narrows on the code with isExchangeApiError", async () => {
    const { client } = testClient(() => apiError(400, "USR_UNVERIFIED", {}, "Customer is unverified"));
    const error = await failure(client.customers.get(CUSTOMER_ID));
    expect(isExchangeApiError(error)).toBe(true);
    expect(isExchangeApiError(error, "USR_UNVERIFIED")).toBe(true);
    expect(isExchangeApiError(error, "USR_NOT_FOUND", "BANK_NOT_FOUND")).toBe(false);
    expect(isExchangeApiError(new Error("x"), "USR_UNVERIFIED")).toBe(false);
    if (isExchangeApiError(error, "USR_UNVERIFIED", "KYC_IN_USE")) {
      expectTypeOf(error.errCode).toEqualTypeOf<"USR_UNVERIFIED" | "KYC_IN_USE">();
    }
  });

  it("turns a proxy's HTML 502 into ExchangeResponseError keeping status and text", async () => {
    const html = "<html><body><h1>502 Bad Gateway</h1></body></html>";
    const { client } = testClient(() => new Response(html, { status: 502, headers: { "Content-Type": "text/html" } }), {
      maxRetries: 0,
    });
    const error = (await failure(client.customers.get(CUSTOMER_ID))) as ExchangeResponseError;
    expect(error).toBeInstanceOf(ExchangeResponseError);
    expect(error.status).toBe(502);
    expect(error.text).toBe(html);
    expect(error.message).toContain("502 Bad Gateway");
  });

  it("turns JSON that is not the envelope into ExchangeResponseError", async () => {
    const { client } = testClient(() => json({ hello: "world" }), { maxRetries: 0 });
    const error = (await failure(client.customers.get(CUSTOMER_ID))) as ExchangeResponseError;
    expect(error).toBeInstanceOf(ExchangeResponseError);
    expect(error.status).toBe(200);
    expect(error.text).toBe('{"hello":"world"}');
  });

  it("turns an empty body into ExchangeResponseError", async () => {
    const { client } = testClient(() => new Response("", { status: 200 }));
    const error = (await failure(client.customers.get(CUSTOMER_ID))) as ExchangeResponseError;
    expect(error.message).toContain("empty body");
  });

  it("turns a fetch failure into ExchangeNetworkError with the cause", async () => {
    const cause = new TypeError("fetch failed");
    const { client } = testClient(() => Promise.reject(cause), { maxRetries: 0 });
    const error = (await failure(client.customers.get(CUSTOMER_ID))) as ExchangeNetworkError;
    expect(error).toBeInstanceOf(ExchangeNetworkError);
    expect(error.cause).toBe(cause);
    expect(error.operation?.operationId).toBe("getCustomer");
  });

  it("turns an attempt that takes too long into ExchangeTimeoutError", async () => {
    const { client } = testClient(hang, { maxRetries: 0, timeoutMs: 20 });
    const error = (await failure(client.customers.get(CUSTOMER_ID))) as ExchangeTimeoutError;
    expect(error).toBeInstanceOf(ExchangeTimeoutError);
    expect(error.scope).toBe("attempt");
    expect(error.timeoutMs).toBe(20);
  });

  it("makes every error an ExchangeError", async () => {
    const { client } = testClient(() => apiError(400, "REQ_FIELD_MISSING"));
    const errors = [
      await failure(client.customers.get(CUSTOMER_ID)),
      await failure(client.banks.list(CUSTOMER_ID, { per_page: 5 })),
    ];
    expect(errors[1]).toBeInstanceOf(ExchangeValidationError);
    for (const error of errors) expect(error).toBeInstanceOf(ExchangeError);
    for (const Class of [
      ExchangeApiError,
      ExchangeResponseError,
      ExchangeNetworkError,
      ExchangeTimeoutError,
      ExchangeValidationError,
    ]) {
      expect(Class.prototype).toBeInstanceOf(ExchangeError);
    }
  });

  it("names each error class after itself", async () => {
    const { client } = testClient(() => apiError(400, "REQ_FIELD_MISSING"));
    const error = (await failure(client.customers.get(CUSTOMER_ID))) as Error;
    expect(error.name).toBe("ExchangeApiError");
    expect(String(error.stack)).toContain("ExchangeApiError");
  });
});

describe("redaction of credentials in errors", () => {
  /** Every view of an error a log line or a report could show. */
  const views = (error: Error) => [
    error.message,
    String(error),
    JSON.stringify(error),
    inspect(error, { depth: 10 }),
    error.stack ?? "",
  ];
  const secretsOf = (signature: string) => [API_KEY, API_SECRET, signature];
  const headerText = (headers: Headers) => {
    let out = "";
    headers.forEach((value, name) => {
      out += `${name}: ${value}\n`;
    });
    return out;
  };

  it("redacts the key, the secret and the request's signature echoed in an error envelope, in every view", async () => {
    const { client } = testClient((request) =>
      json(
        {
          status: false,
          err_code: "AUTH_INVALID_SIGNATURE",
          message: `bad signature ${request.headers["x-signature"]} for key ${API_KEY} (secret ${API_SECRET})`,
          errors: { headers: [`X-SIGNATURE: ${request.headers["x-signature"]}`], [API_KEY]: ["unknown key"] },
          echo: { "X-API-KEY": API_KEY, nested: [{ secret: API_SECRET }] },
        },
        { status: 401, headers: { "X-Echo-Signature": request.headers["x-signature"]!, "X-API-KEY": API_KEY } },
      ),
    );
    const error = (await failure(client.customers.get(CUSTOMER_ID))) as ExchangeApiError;
    expect(error).toBeInstanceOf(ExchangeApiError);
    expect(error.message).toMatch(/^bad signature \[redacted\] for key \[redacted\] \(secret \[redacted\]\) \(401 /);
    const signature = JSON.stringify(error.body).match(/[A-Za-z0-9+/]{43}=/)?.[0];
    expect(signature).toBeUndefined();
    for (const view of [...views(error), JSON.stringify(error.fieldErrors), headerText(error.headers!)]) {
      for (const secret of secretsOf("")) if (secret) expect(view).not.toContain(secret);
      expect(view).not.toMatch(/[A-Za-z0-9+/]{43}=/);
    }
  });

  it("redacts a signature of another request that a proxy echoes", async () => {
    const other = "q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c=";
    const { client } = testClient(
      () => new Response(`<h1>400</h1><p>rejected X-SIGNATURE ${other} from ${API_KEY}</p>`, { status: 400 }),
    );
    const error = (await failure(client.customers.get(CUSTOMER_ID))) as ExchangeResponseError;
    expect(error).toBeInstanceOf(ExchangeResponseError);
    for (const view of [...views(error), error.text]) {
      expect(view).not.toContain(other);
      expect(view).not.toContain(API_KEY);
    }
    expect(error.text).toContain("[redacted]");
  });

  it("redacts credentials in the message of a network error", async () => {
    const { client } = testClient(() => Promise.reject(new TypeError(`fetch failed for ${API_KEY}`)), {
      maxRetries: 0,
    });
    const error = await failure(client.customers.get(CUSTOMER_ID));
    expect(error).toBeInstanceOf(ExchangeNetworkError);
    expect(error.message).toMatch(
      /^network error: fetch failed for \[redacted\]; the connection to https:\/\/exchange\.test failed/,
    );
    expect(error.message).not.toContain(API_KEY);
  });

  it("redacts credentials in the cause's message of an ambiguous result", async () => {
    const { client } = testClient(() => apiError(500, "SYS_INTERNAL_ERROR", {}, `upstream said ${API_SECRET}`));
    const error = await failure(client.payins.saveEdd({ customer_id: CUSTOMER_ID } as never));
    for (const view of views(error)) expect(view).not.toContain(API_SECRET);
  });
});

describe("errors built once", () => {
  it("gives each attempt its own error with its attempt number, and the final one the total", async () => {
    const seen: ExchangeError[] = [];
    const { client } = testClient(() => apiError(503, "SYS_SERVICE_UNAVAILABLE"), {
      hooks: { onRetry: (e) => void seen.push(e.error) },
    });
    const error = (await failure(client.customers.get(CUSTOMER_ID))) as ExchangeApiError;
    expect(seen.map((e) => e.attempts)).toEqual([1, 2, 3]);
    expect(error.attempts).toBe(4);
    expect(error.action).toBe("escalate");
    expect(new Set([...seen, error]).size).toBe(4);
  });

  it("states why it was not retried in its message and field from the start", async () => {
    const { client } = testClient(() => apiError(429, "TOO_MANY_REQUESTS", {}, "slow down", { "Retry-After": "3600" }));
    const error = (await failure(client.customers.get(CUSTOMER_ID))) as ExchangeApiError;
    expect(error.notRetriedReason).toMatch(/Retry-After asks for 3600 s/);
    expect(error.message).toBe(`slow down (not retried: ${error.notRetriedReason})`);
    expect(error.stack).toContain("not retried");
  });

  it("has readonly outcome fields", () => {
    const error = new ExchangeApiError({
      status: 500,
      body: {},
      operation: { operationId: "getCustomer", method: "GET", path: "/x" },
    });
    // @ts-expect-error: attempts is readonly
    error.attempts = 2;
    // @ts-expect-error: action is readonly
    error.action = "fix";
    // @ts-expect-error: notRetriedReason is readonly
    error.notRetriedReason = "x";
    expect(error).toBeInstanceOf(ExchangeApiError);
  });
});
