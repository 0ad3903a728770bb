// What the request line and headers say besides the body: the path and query of the target, the values the
// handler reads (path and query together), and the origin pagination links are built on.
import type { IncomingHttpHeaders } from "node:http";
import type { RequestTarget } from "../api/route.js";

export function requestTarget(url: string): RequestTarget {
  const queryStart = url.indexOf("?");
  return queryStart === -1
    ? { path: url, search: "" }
    : { path: url.slice(0, queryStart), search: url.slice(queryStart + 1) };
}

/**
 * The first value of each query name, overridden by the path's values: what the spec's parameter schemas check
 * (and coerce in place, so the object is the validator's to change).
 */
export function requestValues(
  query: URLSearchParams,
  pathParams: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, value] of query) if (!(key in values)) values[key] = value;
  Object.assign(values, pathParams);
  return values;
}

/** `http://host` from the Host header ("localhost" without one), `https` behind a proxy that says so. */
export function requestOrigin(headers: IncomingHttpHeaders): string {
  const host = typeof headers.host === "string" && headers.host ? headers.host : "localhost";
  const proto = headers["x-forwarded-proto"] === "https" ? "https" : "http";
  return `${proto}://${host}`;
}
