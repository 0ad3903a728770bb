// client.raw: openapi-fetch's client for the spec, with the pipeline as its fetch.
import { canonicalize } from "@exchange-kit/signing";
import createClient, { type Client } from "openapi-fetch";
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
 * True when a raw call may build a PlainRequest: no middleware (the client's, once any was added, or the call's),
 * no `fetch` of the call's own and no `Request` class of its own will see the request.
 *
 * @example
 * plainRequestFits({ params: {} }, false); // true
 * plainRequestFits({ middleware: [logging] }, false); // false
 */
export function plainRequestFits(init: Record<string, unknown> | undefined, middlewareAdded: boolean): boolean {
  if (middlewareAdded) return false;
  if (init === undefined) return true;
  const middleware = init.middleware as readonly unknown[] | undefined;
  return (
    init.fetch === undefined && init.Request === undefined && (middleware === undefined || middleware.length === 0)
  );
}

type RawMethod = "GET" | "PUT" | "POST" | "DELETE" | "OPTIONS" | "HEAD" | "PATCH" | "TRACE";
const RAW_METHODS: readonly RawMethod[] = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"];

/**
 * client.raw: openapi-fetch builds the URL and serializes the body (canonically); the pipeline is its fetch, so the
 * raw client is signed, timed, retried, hooked and logged like every method, and the text it serialized is signed
 * and sent as it is. Until middleware is added (client.raw.use), calls build a PlainRequest.
 */
export function rawClient(send: Send, baseUrl: string): Client<paths> {
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, "");
  const rawFetch = async (request: Request | PlainRequest): Promise<Response> => {
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
  const client = createClient<paths>({ baseUrl, bodySerializer: canonicalize, fetch: rawFetch as typeof fetch });
  let middlewareAdded = false;
  const withRequest = (init: Record<string, unknown> | undefined) =>
    plainRequestFits(init, middlewareAdded) ? { ...init, Request: PlainRequest } : init;
  const loose = client as unknown as Record<string, (...args: unknown[]) => unknown>;
  const raw: Record<string, unknown> = {
    request: (method: unknown, url: unknown, init?: Record<string, unknown>) =>
      loose.request!(method, url, withRequest(init)),
    use(...middleware: Parameters<Client<paths>["use"]>) {
      client.use(...middleware);
      middlewareAdded = true;
    },
    eject: (...middleware: Parameters<Client<paths>["eject"]>) => client.eject(...middleware),
  };
  for (const method of RAW_METHODS) {
    raw[method] = (url: unknown, init?: Record<string, unknown>) => loose[method]!(url, withRequest(init));
  }
  return raw as unknown as Client<paths>;
}
