// client.raw's calls: openapi-fetch's client for the spec, with the client's pipeline as its fetch. Loaded with the
// first raw call (raw-client.ts keeps client.raw synchronous until then), so the client's import and a bundle's main
// chunk carry neither openapi-fetch nor this.
import { canonicalize } from "@exchange-kit/signing";
import createClient from "openapi-fetch";
import { rawAnswer } from "./answered-response.js";
import { ambiguityCheck, classifyRequest } from "./retry-safety.js";
import type { paths } from "./spec.js";
import type { HttpMethod, Send } from "./transport-types.js";

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
      answerAs: rawAnswer,
    });
    return sent.response;
  };
}

/** Sends a raw call: its method, its path template, openapi-fetch's options (the client's middleware included). */
export type RawRequest = (method: string, url: unknown, init: Record<string, unknown> | undefined) => Promise<unknown>;

/**
 * openapi-fetch's client with the pipeline as its fetch and canonical bodies, as one `request` function. Without
 * middleware, a call builds a PlainRequest.
 *
 * @example
 * const request = rawRequester(send, "https://exchange.test");
 * await request("GET", "/cms/api/v1/customer/{customer_id}", { params: { path: { customer_id: id } } });
 */
export function rawRequester(send: Send, baseUrl: string): RawRequest {
  const rawFetch = pipelineFetch(send, baseUrl);
  const client = createClient<paths>({ baseUrl, bodySerializer: canonicalize, fetch: rawFetch as typeof fetch });
  const request = client.request.bind(client) as unknown as RawRequest;
  return (method, url, init) =>
    request(method, url, plainRequestFits(init) ? { ...init, Request: PlainRequest } : init);
}
