import createClient from "openapi-fetch";
import { describe, expect, it } from "vitest";
import type { paths } from "@exchange-kit/types";
import { createSigningMiddleware } from "../src/index.js";
import { plainRequestFits } from "../src/raw-calls.js";
import {
  API_KEY,
  API_SECRET,
  apiError,
  BASE_URL,
  CUSTOMER_ID,
  expectedSignature,
  fakeFetch,
  ok,
  testClient,
} from "./support/fake-fetch.js";

describe("the raw openapi-fetch client", () => {
  it("signs a GET with {} and returns openapi-fetch's result", async () => {
    const { client, calls } = testClient(() => ok({ id: CUSTOMER_ID, status: "VERIFIED" }));
    const { data, response } = await client.raw.GET("/cms/api/v1/customer/{customer_id}", {
      params: { path: { customer_id: CUSTOMER_ID } },
    });
    expect(response.status).toBe(200);
    expect(data?.data?.status).toBe("VERIFIED");
    const call = calls[0]!;
    expect(call.body).toBeUndefined();
    expect(call.headers["x-api-key"]).toBe(API_KEY);
    expect(call.headers["x-signature"]).toBe(expectedSignature(call.headers["x-timestamp"]!, "{}"));
  });

  it("serializes a POST body canonically and signs exactly that", async () => {
    const { client, calls } = testClient(() => ok({}));
    await client.raw.POST("/cms/api/v1/customer/create", {
      body: { full_name: "Zoë", client_reference_id: "c-1", alpha_3_country_code: "SWE" },
    });
    const call = calls[0]!;
    expect(call.body).toBe('{"alpha_3_country_code":"SWE","client_reference_id":"c-1","full_name":"Zo\\u00eb"}');
    expect(call.headers["content-type"]).toBe("application/json");
    expect(call.headers["x-signature"]).toBe(expectedSignature(call.headers["x-timestamp"]!, call.body!));
  });

  it("leaves the query out of the signature", async () => {
    const { client, calls } = testClient(() => ok({ count: 0, next: null, previous: null, results: [] }));
    await client.raw.GET("/pis/api/v1/payin/history", { params: { query: { page: 2, per_page: 10 } } });
    expect(calls[0]!.url.search).toBe("?page=2&per_page=10");
    expect(calls[0]!.headers["x-signature"]).toBe(expectedSignature(calls[0]!.headers["x-timestamp"]!, "{}"));
  });
});

describe("the raw client on the client's own pipeline", () => {
  it("retries a safe GET after a 503 and returns the later answer", async () => {
    const { client, calls } = testClient((_, i) =>
      i === 0 ? apiError(503, "SYS_SERVICE_UNAVAILABLE") : ok({ id: CUSTOMER_ID }),
    );
    const { data, error } = await client.raw.GET("/cms/api/v1/customer/{customer_id}", {
      params: { path: { customer_id: CUSTOMER_ID } },
    });
    expect(error).toBeUndefined();
    expect(data?.data?.id).toBe(CUSTOMER_ID);
    expect(calls).toHaveLength(2);
  });

  it("returns an error answer as openapi-fetch's error, without retrying a fix code", async () => {
    const { client, calls } = testClient(() =>
      apiError(400, "USR_NOT_FOUND", {}, "Customer not found or access denied"),
    );
    const { data, error, response } = await client.raw.GET("/cms/api/v1/customer/{customer_id}", {
      params: { path: { customer_id: CUSTOMER_ID } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ status: false, err_code: "USR_NOT_FOUND" });
    expect(calls).toHaveLength(1);
  });

  it("does not repeat an unsafe POST answered 500, and returns that answer", async () => {
    const { client, calls } = testClient(() => apiError(500, "SYS_INTERNAL_ERROR"));
    const { error, response } = await client.raw.POST("/pis/api/v1/payin/edd/save", {
      body: { customer_id: CUSTOMER_ID } as never,
    });
    expect(response.status).toBe(500);
    expect(error).toMatchObject({ err_code: "SYS_INTERNAL_ERROR" });
    expect(calls).toHaveLength(1);
  });

  it("runs the client's hooks for every attempt", async () => {
    const attempts: number[] = [];
    const { client } = testClient((_, i) => (i === 0 ? apiError(429, "TOO_MANY_REQUESTS") : ok({})), {
      hooks: { onRequest: (event) => void attempts.push(event.attempt) },
    });
    await client.raw.GET("/pis/api/v1/payin/configuration");
    expect(attempts).toEqual([1, 2]);
  });

  it("signs and sends the text a per-request serializer wrote, as written", async () => {
    const { client, calls } = testClient(() => ok({}));
    await client.raw.POST("/cms/api/v1/customer/create", {
      body: { full_name: "Zoë", client_reference_id: "c-1", alpha_3_country_code: "SWE" },
      bodySerializer: (body) => JSON.stringify(body),
    });
    const call = calls[0]!;
    expect(call.body).toBe('{"full_name":"Zoë","client_reference_id":"c-1","alpha_3_country_code":"SWE"}');
    expect(call.headers["x-signature"]).toBe(expectedSignature(call.headers["x-timestamp"]!, call.body!));
  });

  it("sends one Content-Type and one User-Agent", async () => {
    const { client, calls } = testClient(() => ok({}));
    await client.raw.POST("/cms/api/v1/customer/create", {
      body: { full_name: "A", client_reference_id: "c-1", alpha_3_country_code: "SWE" },
    });
    expect(calls[0]!.headers["content-type"]).toBe("application/json");
    expect(calls[0]!.headers["user-agent"]).toMatch(/^exchange-kit-client\/[^,]+$/);
  });
});

describe("the request client.raw builds", () => {
  it("is a real Request for middleware added with client.raw.use", async () => {
    const { client, calls } = testClient(() => ok({ id: CUSTOMER_ID }));
    const seen: unknown[] = [];
    client.raw.use({ onRequest: ({ request }) => void seen.push(request) });
    await client.raw.GET("/cms/api/v1/customer/{customer_id}", { params: { path: { customer_id: CUSTOMER_ID } } });
    expect(seen[0]).toBeInstanceOf(Request);
    expect(calls[0]!.headers["x-signature"]).toBe(expectedSignature(calls[0]!.headers["x-timestamp"]!, "{}"));
  });

  it("is a real Request for a call's own middleware, and the body it carries is signed and sent", async () => {
    const { client, calls } = testClient(() => ok({}));
    const seen: unknown[] = [];
    await client.raw.POST("/cms/api/v1/customer/create", {
      body: { full_name: "A", client_reference_id: "c-1", alpha_3_country_code: "SWE" },
      middleware: [{ onRequest: ({ request }) => void seen.push(request) }],
    });
    expect(seen[0]).toBeInstanceOf(Request);
    const call = calls[0]!;
    expect(call.body).toBe('{"alpha_3_country_code":"SWE","client_reference_id":"c-1","full_name":"A"}');
    expect(call.headers["x-signature"]).toBe(expectedSignature(call.headers["x-timestamp"]!, call.body!));
  });

  it("sends the normalized URL, as a Request would", async () => {
    const { client, calls } = testClient(() => ok({ id: CUSTOMER_ID }));
    await client.raw.GET("/cms/api/v1/customer/{customer_id}", { params: { path: { customer_id: "a b" } } });
    expect(calls[0]!.url.pathname).toBe("/cms/api/v1/customer/a%20b");
  });

  it("sends a body a per-request serializer wrote as something other than a string, read as a Request reads it", async () => {
    const { client, calls } = testClient(() => ok({}));
    await client.raw.POST("/cms/api/v1/customer/create", {
      body: { full_name: "A", client_reference_id: "c-1", alpha_3_country_code: "SWE" },
      bodySerializer: (body) => new Blob([JSON.stringify(body)]) as unknown as string,
    });
    const call = calls[0]!;
    expect(call.body).toBe('{"full_name":"A","client_reference_id":"c-1","alpha_3_country_code":"SWE"}');
    expect(call.headers["x-signature"]).toBe(expectedSignature(call.headers["x-timestamp"]!, call.body!));
  });
});

describe("the answer client.raw resolves with", () => {
  const customer = { params: { path: { customer_id: CUSTOMER_ID } } } as const;
  const envelope = { status: true, message: "Success", data: { id: CUSTOMER_ID, full_name: "Zoë" } };
  const answered = async () => {
    const { client } = testClient(() => ok(envelope.data, { headers: { "x-request-id": "r-1" } }));
    return client.raw.GET("/cms/api/v1/customer/{customer_id}", customer);
  };

  it("is a Response with the service's status and headers", async () => {
    const { response } = await answered();
    expect(response).toBeInstanceOf(Response);
    expect([response.status, response.ok, response.headers.get("x-request-id")]).toEqual([200, true, "r-1"]);
  });

  it("gives its text again after openapi-fetch has parsed it", async () => {
    const { data, response } = await answered();
    expect(data).toEqual(envelope);
    expect(JSON.parse(await response.text())).toEqual(envelope);
    expect(await response.json()).toEqual(envelope);
  });

  it("has a body stream that reads to the same text, and is used once that is read", async () => {
    const { response } = await answered();
    expect(response.bodyUsed).toBe(false);
    expect(JSON.parse(await new Response(response.body).text())).toEqual(envelope);
    expect(response.bodyUsed).toBe(true);
  });

  it("reads as bytes, as a blob and through a clone", async () => {
    const { response } = await answered();
    const text = new TextDecoder().decode(await response.clone().arrayBuffer());
    expect(JSON.parse(text)).toEqual(envelope);
    expect(await response.clone().text()).toBe(text);
    expect(await (await response.blob()).text()).toBe(text);
  });

  it("refuses a second read of its stream, as any Response does", async () => {
    const { response } = await answered();
    await response.arrayBuffer();
    await expect(response.arrayBuffer()).rejects.toBeInstanceOf(TypeError);
  });

  it("reads an escaped key correctly through json()", async () => {
    const { client } = testClient(() => ok({ "\\": 1, "\u7a3c": 2 }));
    const { data, response } = await client.raw.GET("/cms/api/v1/customer/{customer_id}", customer);
    expect(Object.keys((data as { data: object }).data)).toEqual(["\\", "稼"]);
    expect(Object.keys(((await response.json()) as { data: object }).data)).toEqual(["\\", "稼"]);
  });

  it("carries an error answer as openapi-fetch's error, its text still readable", async () => {
    const { client } = testClient(() => apiError(400, "USR_NOT_FOUND", {}, "Customer not found or access denied"));
    const { error, response } = await client.raw.GET("/cms/api/v1/customer/{customer_id}", customer);
    expect(error).toMatchObject({ err_code: "USR_NOT_FOUND" });
    expect(JSON.parse(await response.text())).toMatchObject({ err_code: "USR_NOT_FOUND" });
  });
});

describe("client.raw.use and client.raw.eject", () => {
  const customer = { params: { path: { customer_id: CUSTOMER_ID } } } as const;

  it("refuses something that is not middleware at once, with openapi-fetch's message", () => {
    const { client } = testClient(() => ok({}));
    expect(() => client.raw.use({} as never)).toThrow(
      "Middleware must be an object with one of `onRequest()`, `onResponse() or `onError()`",
    );
  });

  it("runs the client's middleware in the order added, before a call's own", async () => {
    const { client } = testClient(() => ok({ id: CUSTOMER_ID }));
    const order: string[] = [];
    const named = (name: string) => ({ onRequest: () => void order.push(name) });
    client.raw.use(named("first"), named("second"));
    await client.raw.GET("/cms/api/v1/customer/{customer_id}", { ...customer, middleware: [named("call's own")] });
    expect(order).toEqual(["first", "second", "call's own"]);
  });

  it("stops running middleware once it is ejected, and sends through the pipeline as before", async () => {
    const { client, calls } = testClient(() => ok({ id: CUSTOMER_ID }));
    const seen: string[] = [];
    const logging = { onRequest: () => void seen.push("logged") };
    client.raw.use(logging);
    await client.raw.GET("/cms/api/v1/customer/{customer_id}", customer);
    client.raw.eject(logging);
    await client.raw.GET("/cms/api/v1/customer/{customer_id}", customer);
    expect(seen).toEqual(["logged"]);
    expect(calls).toHaveLength(2);
  });

  it("runs middleware added while a call is on its way for the calls made after it, not for that call", async () => {
    const { client } = testClient(() => ok({ id: CUSTOMER_ID }));
    const seen: string[] = [];
    const first = client.raw.GET("/cms/api/v1/customer/{customer_id}", customer);
    client.raw.use({ onResponse: () => void seen.push("answered") });
    await first;
    await client.raw.GET("/cms/api/v1/customer/{customer_id}", customer);
    expect(seen).toEqual(["answered"]);
  });
});

describe("plainRequestFits", () => {
  const middleware = { onRequest: () => undefined };
  it.each([
    ["a call without options", undefined, true],
    ["a call with params only", { params: {} }, true],
    ["a call with an empty middleware list", { middleware: [] }, true],
    ["a call with middleware (its own, or the client's added with use())", { middleware: [middleware] }, false],
    ["a call with its own fetch", { fetch: globalThis.fetch }, false],
    ["a call with its own Request class", { Request: globalThis.Request }, false],
  ])("%s: %s", (_, init, expected) => {
    expect(plainRequestFits(init as Record<string, unknown> | undefined)).toBe(expected);
  });
});

describe("createSigningMiddleware", () => {
  it("signs requests of a self-composed openapi-fetch client", async () => {
    const fake = fakeFetch(() => ok({}));
    const api = createClient<paths>({ baseUrl: BASE_URL, fetch: fake.fetch });
    api.use(createSigningMiddleware({ apiKey: API_KEY, apiSecret: API_SECRET }));
    await api.DELETE("/cms/api/v1/bank/{customer_id}/{bank_id}/delete", {
      params: { path: { customer_id: CUSTOMER_ID, bank_id: CUSTOMER_ID } },
    });
    const call = fake.calls[0]!;
    expect(call.method).toBe("DELETE");
    expect(call.headers["x-signature"]).toBe(expectedSignature(call.headers["x-timestamp"]!, "{}"));
  });

  it("re-canonicalizes a body from the default JSON.stringify serializer so the body sent is the body signed", async () => {
    const fake = fakeFetch(() => ok({}));
    const api = createClient<paths>({ baseUrl: BASE_URL, fetch: fake.fetch });
    api.use(createSigningMiddleware({ apiKey: API_KEY, apiSecret: API_SECRET }));
    await api.POST("/cms/api/v1/customer/create", {
      body: { full_name: "Zoë", client_reference_id: "c-1", alpha_3_country_code: "SWE" },
    });
    const call = fake.calls[0]!;
    expect(call.body).toBe('{"alpha_3_country_code":"SWE","client_reference_id":"c-1","full_name":"Zo\\u00eb"}');
    expect(call.headers["x-signature"]).toBe(expectedSignature(call.headers["x-timestamp"]!, call.body!));
  });
});
