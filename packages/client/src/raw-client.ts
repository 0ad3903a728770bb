// client.raw: openapi-fetch's client for the spec, with the pipeline as its fetch (raw-calls.ts, loaded with the
// first raw call). This part is what the client carries from import: the middleware list and the methods.
import type { Client, Middleware } from "openapi-fetch";
import type { RawRequest } from "./raw-calls.js";
import type { paths } from "./spec.js";
import type { Send } from "./transport-types.js";

/** The methods of openapi-fetch's client, each a shorthand for `request`. */
const RAW_METHODS = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"] as const;

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
 * client.raw.use() runs before a call's own, as openapi-fetch runs its client's.
 */
export function rawClient(send: Send, baseUrl: string): Client<paths> {
  const added: Middleware[] = [];
  let loading: Promise<RawRequest> | undefined;
  const load = () =>
    (loading ??= import("./raw-calls.js").then(
      ({ rawRequester }) => rawRequester(send, baseUrl),
      (cause: unknown) => {
        loading = undefined; // tried again by the next call
        throw cause;
      },
    ));
  const withMiddleware = (init: Record<string, unknown> | undefined) => {
    const own = init?.middleware as readonly Middleware[] | undefined;
    return added.length === 0 ? init : { ...init, middleware: [...added, ...(own ?? [])] };
  };
  // The middleware list is taken when the call is made (before the first await), as openapi-fetch takes it.
  const call = async (method: string, url: unknown, init: Record<string, unknown> | undefined) => {
    const options = withMiddleware(init);
    const request = await load();
    return request(method, url, options);
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
