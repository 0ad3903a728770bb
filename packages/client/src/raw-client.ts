// client.raw: openapi-fetch's client for the spec, with the pipeline as its fetch.
import { canonicalize } from "@exchange-kit/signing";
import type { Client, Middleware } from "openapi-fetch";
import type { HttpMethod } from "./client.js";
import { ambiguityCheck, classifyRequest } from "./retry-safety.js";
import type { paths } from "./spec.js";
import type { Send } from "./transport-types.js";

/** What openapi-fetch hands the Request class it is given. */
interface RequestParts {
  readonly method: string;
  readonly headers: Headers;
  readonly body?: BodyInit | null | undefined;
  readonly signal?: AbortSignal | null | undefined;
}

/**
 * The request openapi-fetch builds for client.raw when nothing but the pipeline will see it: the parts the pipeline
 * reads, kept as given. undici's Request (a body stream to read back, a signal that follows the caller's, guarded
 * headers) cost about as much as the rest of a raw call. Middleware and a call's own `fetch` get a real Request.
 */
class PlainRequest {
  readonly url: string;
  readonly pathname: string;
  readonly method: string;
  readonly headers: Headers;
  readonly signal: AbortSignal | undefined;
  readonly #body: BodyInit | null;

  constructor(url: string, init: RequestParts) {
    // Parsed as Request parses it: the URL sent and the path classified are the normalized ones.
    const parsed = new URL(url);
    this.url = parsed.href;
    this.pathname = parsed.pathname;
    this.method = init.method;
    this.headers = init.headers;
    this.signal = init.signal ?? undefined;
    this.#body = init.body ?? null;
  }

  /** The body as text: a serializer's string as it is; anything else read as a Request would read it. */
  text(): Promise<string> {
    const body = this.#body;
    if (body === null || typeof body === "string") return Promise.resolve(body ?? "");
    return new Response(body).text();
  }
}

/**
 * True when a raw call may build a PlainRequest: no middleware (the client's, added with client.raw.use(), is
 * already in the call's list), no `fetch` of the call's own and no `Request` class of its own will see the request.
 *
 * @example
 * plainRequestFits({ params: {} }); // true
 * plainRequestFits({ middleware: [logging] }); // false
 */
export function plainRequestFits(init: Record<string, unknown> | undefined): boolean {
  if (init === undefined) return true;
  const middleware = init.middleware as readonly unknown[] | undefined;
  return (
    init.fetch === undefined && init.Request === undefined && (middleware === undefined || middleware.length === 0)
  );
}

/**
 * The fetch openapi-fetch is given: the request it built, classified by its path (operation, retry class), sent
 * through the client's pipeline with the text it serialized, and the pipeline's answer returned as a Response.
 */
function pipelineFetch(send: Send, baseUrl: string): (request: Request | PlainRequest) => Promise<Response> {
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, "");
  return async (request) => {
    const method = request.method as HttpMethod;
    const pathname = request instanceof PlainRequest ? request.pathname : new URL(request.url).pathname;
    const path = pathname.slice(basePath.length);
    const route = classifyRequest(method, path);
    const bodyText = request instanceof PlainRequest || request.body !== null ? await request.text() : "";
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      if (name !== "content-type") headers[name] = value;
    });
    const sent = await send({
      operation: { operationId: route.operationId, method, path: route.path },
      path,
      url: request.url,
      bodyText: bodyText === "" ? undefined : bodyText,
      options: { headers, signal: request.signal ?? undefined },
      idempotency: route.idempotency,
      check: ambiguityCheck(route.operationId),
      answer: "response",
    });
    return sent.response;
  };
}

type RawMethod = "GET" | "PUT" | "POST" | "DELETE" | "OPTIONS" | "HEAD" | "PATCH" | "TRACE";
const RAW_METHODS: readonly RawMethod[] = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"];

type RawRequest = { request: (method: string, url: unknown, init: unknown) => Promise<unknown> };

const NOT_MIDDLEWARE = "Middleware must be an object with one of `onRequest()`, `onResponse() or `onError()`";

/**
 * client.raw.use(): the middleware kept in order, checked as openapi-fetch checks it (falsy skipped, anything
 * without a hook refused at once), so that use() stays synchronous while openapi-fetch is not loaded yet.
 */
function addMiddleware(added: Middleware[], middleware: readonly (Middleware | undefined | null)[]): void {
  for (const m of middleware) {
    if (!m) continue;
    if (typeof m !== "object" || !("onRequest" in m || "onResponse" in m || "onError" in m)) {
      throw new Error(NOT_MIDDLEWARE);
    }
    added.push(m);
  }
}

/** client.raw.eject(): each given middleware's first registration taken out, as openapi-fetch does. */
function ejectMiddleware(added: Middleware[], middleware: readonly (Middleware | undefined | null)[]): void {
  for (const m of middleware) {
    const at = m ? added.indexOf(m) : -1;
    if (at !== -1) added.splice(at, 1);
  }
}

/**
 * client.raw: openapi-fetch builds the URL and serializes the body (canonically); the pipeline is its fetch, so the
 * raw client is signed, timed, retried, hooked and logged like every method, and the text it serialized is signed
 * and sent as it is. openapi-fetch loads with the first raw call, not with the client; the middleware added with
 * client.raw.use() runs before a call's own, as openapi-fetch runs its client's. Without middleware, calls build a
 * PlainRequest.
 */
export function rawClient(send: Send, baseUrl: string): Client<paths> {
  const rawFetch = pipelineFetch(send, baseUrl);
  const added: Middleware[] = [];
  let loading: Promise<Client<paths>> | undefined;
  const load = () =>
    (loading ??= import("openapi-fetch").then(
      ({ default: createClient }) =>
        createClient<paths>({ baseUrl, bodySerializer: canonicalize, fetch: rawFetch as typeof fetch }),
      (cause: unknown) => {
        loading = undefined; // tried again by the next call
        throw cause;
      },
    ));
  const withRequest = (init: Record<string, unknown> | undefined) => {
    const own = init?.middleware as readonly Middleware[] | undefined;
    const middleware = added.length === 0 ? own : [...added, ...(own ?? [])];
    const withMiddleware = middleware === own ? init : { ...init, middleware };
    return plainRequestFits(withMiddleware) ? { ...withMiddleware, Request: PlainRequest } : withMiddleware;
  };
  // The middleware list is taken when the call is made (before the first await), as openapi-fetch takes it.
  const call = async (method: string, url: unknown, init: Record<string, unknown> | undefined) => {
    const options = withRequest(init);
    const client = (await load()) as unknown as RawRequest;
    return client.request(method, url, options);
  };
  const raw: Record<string, unknown> = {
    request: (method: string, url: unknown, init?: Record<string, unknown>) => call(method, url, init),
    use: (...middleware: Middleware[]) => addMiddleware(added, middleware),
    eject: (...middleware: Middleware[]) => ejectMiddleware(added, middleware),
  };
  for (const method of RAW_METHODS) {
    raw[method] = (url: unknown, init?: Record<string, unknown>) => call(method, url, init);
  }
  return raw as unknown as Client<paths>;
}
