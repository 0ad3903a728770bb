// node:http with a segment-trie router and no framework: the request pipeline is route → read body (size
// limit) → UTF-8 and nesting limit → authenticate (canonical form) → parse JSON → validate against the spec →
// handler in one transaction → envelope. Every failure, including unexpected exceptions, ends in the
// document's error envelope; the server keeps serving.
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { ApiError, type FieldErrors } from "./api-error.js";
import { authenticate } from "./auth.js";
import { bodyObject, bodyText } from "./body.js";
import { Router } from "./router.js";
import { pickCode } from "../spec/error-mapping.js";
import { validateRequest, precompile, type ValidationOptions } from "../spec/request-validation.js";
import type { SpecOperation } from "../spec/openapi.js";
import type { Logger } from "../logger.js";

export interface Organization {
  id: string;
  name: string;
  apiKey: string;
  apiSecret: string;
}

export interface RequestContext<D> {
  org: Organization;
  /** Path and query values, validated and coerced by the spec's parameter schemas. */
  params: Record<string, unknown>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  /** The request's own origin (from Host) and path, for absolute pagination URLs. */
  origin: string;
  path: string;
  domain: D;
}

export interface HandlerResult {
  message: string;
  data: unknown;
}

export type Handler<D> = (ctx: RequestContext<D>) => HandlerResult;

export interface RouteDefinition<D> {
  method: string;
  path: string;
  handler: Handler<D>;
  /** The spec operation, when the route implements one: its schemas validate the request, its enum narrows codes. */
  operation?: SpecOperation;
  validation?: ValidationOptions;
  /** Routes outside the API (the bank link page) skip authentication. */
  public?: boolean;
}

export interface ServerOptions<D> {
  routes: Array<RouteDefinition<D>>;
  organizationsByKey: ReadonlyMap<string, Organization>;
  domain: D;
  bodyLimitBytes: number;
  logger: Logger;
  /** Runs a handler as one unit of storage work: committed before the answer is written, or rolled back. */
  transaction?: <R>(work: () => R) => R;
}

/** Past this, stop draining an oversized body and drop the connection. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
const EMPTY = Buffer.alloc(0);

function send(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(payload);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function errorPayload(error: ApiError, useErrorKey: boolean): Record<string, unknown> {
  // The remittance quotation names its field errors `error` (an object); everywhere else it is `errors`.
  if (useErrorKey) {
    const fields: FieldErrors = typeof error.errors === "string" ? { non_field_errors: [error.errors] } : error.errors;
    return { status: false, message: error.message, data: null, error: fields, err_code: error.code };
  }
  return { status: false, message: error.message, data: null, err_code: error.code, errors: error.errors };
}

export function createApiServer<D>(options: ServerOptions<D>): Server {
  const router = new Router<RouteDefinition<D>>();
  for (const route of options.routes) {
    router.add(route.method, route.path, route);
    if (route.operation) precompile(route.operation, route.validation);
  }
  const { logger } = options;

  function fail(res: ServerResponse, route: RouteDefinition<D> | undefined, error: ApiError): void {
    let code = error.code;
    const allowed = route?.operation?.errCodes400;
    // Never answer a 400 code the operation does not list: fall back to INPUT_MALFORMED or UNKNOWN_ERROR.
    if (error.status === 400 && allowed && !allowed.has(code)) code = pickCode([code], allowed);
    const narrowed = code === error.code ? error : new ApiError(error.status, code, error.message, error.errors);
    send(res, error.status, errorPayload(narrowed, route?.operation?.usesErrorKey ?? false), error.headers);
  }

  function handle(
    req: IncomingMessage,
    res: ServerResponse,
    route: RouteDefinition<D>,
    params: Record<string, string>,
    raw: Buffer,
    path: string,
    search: string,
  ): void {
    const headers = req.headers;
    const text = raw.length > 0 ? bodyText(raw) : undefined;
    const org = route.public
      ? undefined
      : authenticate(headers, text === undefined ? undefined : { raw, text }, options.organizationsByKey);
    const body = text !== undefined && req.method !== "GET" && req.method !== "HEAD" ? bodyObject(text) : {};
    const query = new URLSearchParams(search);
    const values: Record<string, unknown> = {};
    for (const [key, value] of query) if (!(key in values)) values[key] = value;
    Object.assign(values, params);
    if (route.operation) {
      const invalid = validateRequest(route.operation, values, body, route.validation);
      if (invalid) throw invalid;
    }
    const host = typeof headers.host === "string" && headers.host ? headers.host : "localhost";
    const proto = headers["x-forwarded-proto"] === "https" ? "https" : "http";
    const context: RequestContext<D> = {
      org: org!,
      params: values,
      query,
      body,
      origin: `${proto}://${host}`,
      path,
      domain: options.domain,
    };
    // The answer is written only after the handler's writes are committed; an error rolls all of them back.
    const result = options.transaction ? options.transaction(() => route.handler(context)) : route.handler(context);
    send(res, 200, { status: true, message: result.message, data: result.data });
  }

  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    const method = req.method ?? "GET";
    const queryStart = url.indexOf("?");
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    const search = queryStart === -1 ? "" : url.slice(queryStart + 1);
    const found = router.lookup(method, path);
    if (found.kind !== "found") {
      req.resume();
      if (found.kind === "not-found") {
        fail(
          res,
          undefined,
          new ApiError(
            404,
            "NOT_FOUND",
            "Path not found: check the module prefix (/cms/api/v1, /pis/api/v1, /pos/api/v1, /org/api/v1)",
          ),
        );
      } else {
        fail(
          res,
          undefined,
          new ApiError(
            405,
            "NOT_FOUND",
            `Method ${method} not allowed on this path; allowed: ${found.allowed.join(", ")}`,
            {
              method: [`Use ${found.allowed.join(" or ")}.`],
            },
            { Allow: found.allowed.join(", ") },
          ),
        );
      }
      return;
    }
    const { route, params } = found.match;
    const run = (raw: Buffer) => {
      try {
        handle(req, res, route, params, raw, path, search);
      } catch (caught) {
        if (caught instanceof ApiError) {
          fail(res, route, caught);
        } else {
          logger.error(
            `${method} ${url} failed: ${caught instanceof Error ? (caught.stack ?? caught.message) : String(caught)}`,
          );
          fail(res, route, new ApiError(500, "SYS_INTERNAL_ERROR", "Internal Server Error"));
        }
      }
      if (logger.enabled) logger.info(`${method} ${url} ${res.statusCode}`);
    };
    const lengthHeader = req.headers["content-length"];
    // No body announced (the usual GET and DELETE): answer now instead of waiting for the stream's end event.
    if ((lengthHeader === undefined || lengthHeader === "0") && req.headers["transfer-encoding"] === undefined) {
      req.resume();
      run(EMPTY);
      return;
    }
    const declared = Number(lengthHeader);
    let size = 0;
    let tooLarge = Number.isFinite(declared) && declared > options.bodyLimitBytes;
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > options.bodyLimitBytes) tooLarge = true;
      if (tooLarge) {
        chunks.length = 0;
        if (size > DRAIN_LIMIT_BYTES) req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("error", () => res.destroy());
    req.on("end", () => {
      if (tooLarge) {
        fail(
          res,
          route,
          new ApiError(
            413,
            "INPUT_MALFORMED",
            `Request body too large: the limit is ${options.bodyLimitBytes} bytes`,
            {
              non_field_errors: [`The body must be at most ${options.bodyLimitBytes} bytes.`],
            },
            { Connection: "close" },
          ),
        );
        return;
      }
      run(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
  });

  // Requests Node cannot even parse (garbage, oversized headers) get the envelope too, instead of a bare 400.
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === "ECONNRESET") {
      socket.destroy();
      return;
    }
    const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
    const body = JSON.stringify({
      status: false,
      message: status === 431 ? "Request headers too large" : "Malformed HTTP request",
      data: null,
      err_code: "INPUT_MALFORMED",
      errors: {
        non_field_errors: [
          status === 431 ? "The request headers are too large." : "The request is not valid HTTP/1.1.",
        ],
      },
    });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
