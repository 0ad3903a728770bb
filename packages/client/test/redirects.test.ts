// Redirects, against real servers: one that redirects every request, and a "capturing" server on another port
// where the redirects point. The client must never send a signed request to the capturing server, and never hand
// its answer back as the service's.
import { afterEach, describe, expect, it } from "vitest";
import { createSigningMiddleware } from "../src/index.js";
import { createExchangeClient, ExchangeRedirectError, type ExchangeClientOptions } from "../src/index.js";
import { redirectOf } from "../src/redirect.js";
import createClient from "openapi-fetch";
import { API_KEY, API_SECRET, CUSTOMER_ID, failure } from "./support/fake-fetch.js";
import { okEnvelope, startServer, type TestServer } from "./support/http-server.js";

const running: TestServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

/** The capturing server (answers every request with a success envelope) and a server redirecting to `location`. */
async function servers(status: number, location: (capture: TestServer) => string) {
  const capture = await startServer((_, response) => {
    response.writeHead(200, { "content-type": "application/json" }).end(okEnvelope({ id: "from-the-other-origin" }));
  });
  running.push(capture);
  const redirecting = await startServer((_, response) => {
    response.writeHead(status, { location: location(capture) }).end();
  });
  running.push(redirecting);
  const client = (options: ExchangeClientOptions = {}) =>
    createExchangeClient({
      baseUrl: redirecting.url,
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      retryBaseMs: 1,
      ...options,
    });
  return { capture, redirecting, client };
}

// A path and a query on the other origin, which the error must not repeat: they may carry tokens.
const elsewhere = (capture: TestServer) => `${capture.url}/landing/path?token=t0k3n-in-location#frag`;
const createBody = { client_reference_id: "c-1", alpha_3_country_code: "IND", full_name: "Asha Verma" };

describe.each([301, 302, 303, 307, 308])("a %i to another origin", (status) => {
  it("rejects a GET with ExchangeRedirectError naming that origin, and sends nothing there", async () => {
    const { capture, redirecting, client } = await servers(status, elsewhere);
    const error = await failure(client().customers.get(CUSTOMER_ID));
    expect(error).toBeInstanceOf(ExchangeRedirectError);
    expect(error.status).toBe(status);
    expect(error.locationOrigin).toBe(capture.url);
    expect(error.followed).toBe(false);
    expect(error.message).toContain(capture.url);
    expect(error.message).toMatch(/baseUrl/);
    expect(capture.arrived).toHaveLength(0);
    expect(redirecting.arrived).toHaveLength(1);
  });

  it("rejects a signed POST the same way, and its body goes nowhere else", async () => {
    const { capture, redirecting, client } = await servers(status, elsewhere);
    const error = await failure(client().customers.create(createBody));
    expect(error).toBeInstanceOf(ExchangeRedirectError);
    expect(error.locationOrigin).toBe(capture.url);
    expect(capture.arrived).toHaveLength(0);
    expect(redirecting.arrived.map((r) => r.method)).toEqual(["POST"]);
  });

  it("rejects client.raw the same way instead of returning the redirect as an error answer", async () => {
    const { capture, client } = await servers(status, elsewhere);
    const raw = client().raw;
    const get = await failure(
      raw.GET("/cms/api/v1/customer/{customer_id}", { params: { path: { customer_id: CUSTOMER_ID } } }),
    );
    const post = await failure(raw.POST("/cms/api/v1/customer/create", { body: createBody }));
    expect(get).toBeInstanceOf(ExchangeRedirectError);
    expect(post).toBeInstanceOf(ExchangeRedirectError);
    expect(get.locationOrigin).toBe(capture.url);
    expect(capture.arrived).toHaveLength(0);
  });
});

describe("redirects", () => {
  it("names only the origin of Location, never its path, query or fragment", async () => {
    const { client } = await servers(302, elsewhere);
    const error = await failure(client().customers.get(CUSTOMER_ID));
    const views = [error.message, String(error), JSON.stringify(error), error.locationOrigin];
    for (const view of views) expect(view).not.toMatch(/landing|t0k3n|frag/);
  });

  it("refuses a redirect to another path of the same origin: the service has no redirects at all", async () => {
    const { redirecting, client } = await servers(301, () => "/cms/api/v1/customer/moved");
    const error = await failure(client().customers.get(CUSTOMER_ID));
    expect(error).toBeInstanceOf(ExchangeRedirectError);
    expect(error.locationOrigin).toBe(redirecting.url);
    expect(redirecting.arrived.map((r) => r.url)).toEqual([`/cms/api/v1/customer/${CUSTOMER_ID}`]);
  });

  it("does not retry a redirect", async () => {
    const { redirecting, client } = await servers(307, elsewhere);
    const error = await failure(client({ maxRetries: 3 }).customers.get(CUSTOMER_ID));
    expect(error.attempts).toBe(1);
    expect(redirecting.arrived).toHaveLength(1);
  });

  it("rejects client.request the same way", async () => {
    const { capture, client } = await servers(308, elsewhere);
    const error = await failure(client().request("POST", "/cms/api/v1/customer/wallet/create", { body: { a: "1" } }));
    expect(error).toBeInstanceOf(ExchangeRedirectError);
    expect(capture.arrived).toHaveLength(0);
  });

  it("reports a redirect without a Location with an unknown origin", async () => {
    const { client } = await servers(302, () => "");
    const error = await failure(client().customers.get(CUSTOMER_ID));
    expect(error).toBeInstanceOf(ExchangeRedirectError);
    expect(error.locationOrigin).toBeUndefined();
  });

  it("asks a fetch given in the options not to follow redirects", async () => {
    const { capture, client } = await servers(302, elsewhere);
    const modes: (RequestRedirect | undefined)[] = [];
    const passOn = (input: RequestInfo | URL, init?: RequestInit) => {
      modes.push(init?.redirect);
      return fetch(input, init);
    };
    const error = await failure(client({ fetch: passOn as typeof fetch }).customers.get(CUSTOMER_ID));
    expect(error).toBeInstanceOf(ExchangeRedirectError);
    expect(modes).toEqual(["manual"]);
    expect(capture.arrived).toHaveLength(0);
  });

  it("discards the answer of a fetch given in the options that followed a redirect anyway", async () => {
    const { capture, client } = await servers(302, elsewhere);
    const following = (input: RequestInfo | URL, init?: RequestInit) => fetch(input, { ...init, redirect: "follow" });
    const error = await failure(client({ fetch: following as typeof fetch }).customers.get(CUSTOMER_ID));
    expect(error).toBeInstanceOf(ExchangeRedirectError);
    expect(error.followed).toBe(true);
    expect(error.locationOrigin).toBe(capture.url);
    expect(error.message).toMatch(/ignored redirect: "manual"/);
    // That fetch did send it there: the client can only refuse the answer.
    expect(capture.arrived).toHaveLength(1);
  });

  it("makes createSigningMiddleware's requests not follow redirects either", async () => {
    const { capture, redirecting } = await servers(307, elsewhere);
    const api = createClient<Record<string, never>>({ baseUrl: redirecting.url });
    api.use(createSigningMiddleware({ apiKey: API_KEY, apiSecret: API_SECRET }));
    const error = await failure(
      (api as never as { POST: (p: string, o: unknown) => Promise<unknown> }).POST("/x", { body: { a: 1 } }),
    );
    expect(error).toBeInstanceOf(ExchangeRedirectError);
    expect(error.locationOrigin).toBe(capture.url);
    expect(capture.arrived).toHaveLength(0);
    expect(redirecting.arrived[0]!.headers["x-signature"]).toBeDefined();
  });
});

describe("redirectOf", () => {
  const base = "https://api.exchange.example/cms/api/v1/customer/1";
  const answer = (init: Partial<Record<"status" | "type" | "redirected" | "url", unknown>>, location?: string) =>
    ({
      status: 200,
      type: "basic" as ResponseType,
      redirected: false,
      url: base,
      headers: new Headers(location === undefined ? {} : { location }),
      ...init,
    }) as Parameters<typeof redirectOf>[0];

  it.each([
    ["a 200", answer({}), undefined],
    ["a 404", answer({ status: 404 }), undefined],
    ["a 304", answer({ status: 304 }), { status: 304, locationOrigin: undefined, followed: false }],
    [
      "a 302 to an absolute URL",
      answer({ status: 302 }, "https://evil.example:8443/a?k=1"),
      { status: 302, locationOrigin: "https://evil.example:8443", followed: false },
    ],
    [
      "a 301 to a relative path",
      answer({ status: 301 }, "/other"),
      { status: 301, locationOrigin: "https://api.exchange.example", followed: false },
    ],
    [
      "a 308 to a scheme-relative URL",
      answer({ status: 308 }, "//cdn.example/x"),
      { status: 308, locationOrigin: "https://cdn.example", followed: false },
    ],
    [
      "a 307 to a data: URL",
      answer({ status: 307 }, "data:text/plain,x"),
      { status: 307, locationOrigin: undefined, followed: false },
    ],
    [
      "a 303 to something that is not a URL",
      answer({ status: 303 }, "http://[::1"),
      { status: 303, locationOrigin: undefined, followed: false },
    ],
    [
      "a browser's opaque redirect",
      answer({ status: 0, type: "opaqueredirect" }),
      { status: 0, locationOrigin: undefined, followed: false },
    ],
    [
      "an answer a fetch reached by following",
      answer({ redirected: true, url: "https://evil.example/p?q" }),
      { status: 0, locationOrigin: "https://evil.example", followed: true },
    ],
  ])("%s", (_, response, expected) => {
    expect(redirectOf(response, base)).toEqual(expected);
  });
});
