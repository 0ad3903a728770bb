// What a route is to the server: a method and path template, the handler, and, when it implements an operation
// of the spec, the operation whose schemas validate the request before the handler sees it.
import type { SpecOperation } from "../spec/openapi.js";
import type { ValidationOptions } from "../spec/request-validation.js";

/** The target of a request line: what the server hands an intercept (the dashboard, readiness) and the router. */
export interface RequestTarget {
  /** The path as sent (percent-encoded), which the router matches. */
  path: string;
  /** The query string after `?`, empty when there is none. */
  search: string;
}

export interface Organization {
  id: string;
  name: string;
  apiKey: string;
  apiSecret: string;
}

/** A JSON object body: what every body is once parsed, before a schema says more about its members. */
export type JsonObject = Readonly<Record<string, unknown>>;

/** Path values from the router and query values (the first of each name), as strings until a schema coerces them. */
export type RequestValues = Readonly<Record<string, unknown>>;

export interface RequestContext<D, Body = JsonObject, Params = RequestValues> {
  org: Organization;
  /** Path and query values, validated and coerced by the spec's parameter schemas when the route has an operation. */
  params: Params;
  query: URLSearchParams;
  body: Body;
  /** The request's own origin (from Host) and path, for absolute pagination URLs. */
  origin: string;
  path: string;
  domain: D;
}

export interface HandlerResult {
  message: string;
  data: unknown;
}

/** The server's view of a handler: it passes the parsed body and the values it validated against the route. */
export type Handler<D> = (ctx: RequestContext<D>) => HandlerResult | Promise<HandlerResult>;

export interface RouteDefinition<D> {
  method: string;
  path: string;
  handler: Handler<D>;
  /** The spec operation, when the route implements one: its schemas validate the request, its enum narrows codes. */
  operation?: SpecOperation;
  validation?: ValidationOptions;
  /** Routes outside the API (the bank link page) skip authentication. */
  public?: boolean;
  /** A GET that writes (the request log's reader keeps the entries waiting first): not run as a read-only transaction. */
  writes?: boolean;
}
