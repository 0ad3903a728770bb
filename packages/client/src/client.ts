import type { Client } from "openapi-fetch";
import { ExchangeConfigurationError, ExchangeValidationError, type OperationRef } from "./errors.js";
import { createLog, type Logger, type LogLevel } from "./logger.js";
import {
  boundedOption,
  checkBaseUrl,
  checkLogLevel,
  checkUserAgent,
  DEFAULT_MAX_RESPONSE_BYTES,
} from "./options-bounds.js";
import type { Resources } from "./resource-groups.js";
import { rawClient } from "./raw-client.js";
import { createResources } from "./resources.js";
import { ambiguityCheck, classifyRequest } from "./retry-safety.js";
import type { paths } from "./spec.js";
import { createTransport, unwrapData } from "./transport.js";
import type { Hooks, HttpMethod, RequestOptions, Send } from "./transport-types.js";
import { VERSION } from "./version.js";

/** Options of createExchangeClient. */
export interface ExchangeClientOptions {
  /** The environment's base URL, e.g. `https://sandbox.exchange.example`. Default: `EXCHANGE_BASE_URL`. */
  baseUrl?: string | undefined;
  /** Default: `EXCHANGE_API_KEY`. */
  apiKey?: string | undefined;
  /** Default: `EXCHANGE_API_SECRET`. Keep it on your server. */
  apiSecret?: string | undefined;
  /** Retries after a retryable failure (429, 500, 503, NET_TIMEOUT, network errors, timeouts). Default 3; 0 to 10. */
  maxRetries?: number | undefined;
  /** Limit for one attempt, in ms (>= 1). Default 30000. `Infinity` disables it. */
  timeoutMs?: number | undefined;
  /** Limit for a whole call, retries and backoff included, in ms (>= 1). Default: none. */
  deadlineMs?: number | undefined;
  /**
   * The fetch to use. Default: the platform's `globalThis.fetch`. It is called with `redirect: "manual"` and must
   * honour it: a redirect it follows anyway is refused (ExchangeRedirectError), but the request has then gone there.
   */
  fetch?: typeof fetch | undefined;
  /** The User-Agent header. Default `exchange-kit-client/<version>`. */
  userAgent?: string | undefined;
  /** Where log lines go; nothing is logged without one. Keys, secrets and signatures are redacted. */
  logger?: Logger | undefined;
  /** The lowest level written to `logger`. Default `"info"`. */
  logLevel?: LogLevel | undefined;
  /** Called around every attempt: onRequest, onResponse, onRetry. */
  hooks?: Hooks | undefined;
  /** Allow construction where `window` and `document` exist. The secret is readable there. */
  dangerouslyAllowBrowser?: boolean | undefined;
  /** The first backoff wait in ms, doubled per retry. Default 1000, as the document recommends; 1 to 60000; lower it in tests only. */
  retryBaseMs?: number | undefined;
  /** Pages of 100 the initiate helpers scan for an order after an ambiguous failure. Default 5; 1 to 100. */
  historyLookupPages?: number | undefined;
  /**
   * The largest answer read, in bytes: a larger one fails with ExchangeResponseTooLargeError and is not read
   * further. Default 4 MiB (4194304); 1024 to 2^30.
   */
  maxResponseBytes?: number | undefined;
  /**
   * OpenTelemetry spans (a span per call, a child span per attempt) when the application has `@opentelemetry/api`
   * and a tracer provider registered. Default true; with false the API is never imported.
   */
  tracing?: boolean | undefined;
  /**
   * Send the W3C `traceparent` (and `tracestate`) of each attempt, so the exchange's side can join the trace; the
   * sandbox reads it, the service ignores headers it does not know. Not signed. Default true.
   */
  propagateTraceContext?: boolean | undefined;
}

/** Options of `client.request`. */
export interface RawRequestOptions extends RequestOptions {
  /** The JSON body (not for GET and DELETE). It is canonicalized, signed and sent as signed. */
  body?: unknown | undefined;
  /** Query parameters (not signed). */
  query?: Record<string, string | number | boolean | null | undefined> | undefined;
}

/** The signed escape hatch for operations the spec cannot type yet. */
export interface RequestMethod {
  /**
   * Signs and sends any request, with the same retries, timeouts, errors and
   * logging as the resource methods, and resolves to the envelope's `data`.
   *
   * @example
   * const wallet = await client.request<{ id: number }>("POST", "/cms/api/v1/customer/wallet/create", {
   *   body: { customer_id, wallet_address, network: "Polygon", label: "main" },
   * });
   */
  <T = unknown>(method: HttpMethod, path: `/${string}`, options?: RawRequestOptions): Promise<T>;
  /** Same, also returning the Response. */
  withResponse<T = unknown>(
    method: HttpMethod,
    path: `/${string}`,
    options?: RawRequestOptions,
  ): Promise<{ data: T; response: Response }>;
}

/** The client: resource groups derived from the spec, `raw` and `request`. */
export type ExchangeClient = Resources & {
  /**
   * The openapi-fetch client for the spec, sent through the client's own pipeline (signing, timeouts, retries
   * by retry class, hooks, logging). It returns openapi-fetch's `{ data, error, response }`, with the envelope
   * as `data` or `error`. Add your own middleware with `client.raw.use()`.
   */
  readonly raw: Client<paths>;
  readonly request: RequestMethod;
};

/** `options[option]`, else the environment variable (read only where `process` exists: not in Workers and browsers). */
function required(
  options: ExchangeClientOptions,
  option: "apiKey" | "apiSecret" | "baseUrl",
  variable: string,
): string {
  const value =
    options[option] ??
    ((globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[variable] || undefined);
  if (typeof value !== "string" || value === "") {
    throw new ExchangeConfigurationError(`${option} is missing: pass { ${option} } or set ${variable}`, option);
  }
  return value;
}

/**
 * Creates the client. Credentials and base URL come from the options or from
 * EXCHANGE_API_KEY, EXCHANGE_API_SECRET and EXCHANGE_BASE_URL; a missing one
 * throws here, not at the first request.
 *
 * @example
 * const client = createExchangeClient({ baseUrl: "https://sandbox.exchange.example", apiKey, apiSecret });
 * const customer = await client.customers.create({ client_reference_id: "c-1", alpha_3_country_code: "IND", full_name: "Asha Verma" });
 * const banks = await client.banks.list(customer.id, { per_page: 10 });
 */
export function createExchangeClient(options: ExchangeClientOptions = {}): ExchangeClient {
  const dangerouslyAllowBrowser = options.dangerouslyAllowBrowser === true;
  const g = globalThis as { window?: unknown; document?: unknown };
  if (!dangerouslyAllowBrowser && typeof g.window !== "undefined" && typeof g.document !== "undefined") {
    throw new ExchangeConfigurationError(
      "refusing to run in a browser, where the API secret is readable by anyone: call the exchange from your " +
        "server (or pass dangerouslyAllowBrowser: true where that is trusted, e.g. jsdom tests)",
      "dangerouslyAllowBrowser",
    );
  }
  const apiKey = required(options, "apiKey", "EXCHANGE_API_KEY");
  const apiSecret = required(options, "apiSecret", "EXCHANGE_API_SECRET");
  const baseUrl = checkBaseUrl(required(options, "baseUrl", "EXCHANGE_BASE_URL"));
  const userAgent = checkUserAgent(options.userAgent, `exchange-kit-client/${VERSION}`);
  const send = createTransport({
    baseUrl,
    apiKey,
    apiSecret,
    fetch: options.fetch,
    maxRetries: boundedOption("maxRetries", options.maxRetries, 3),
    timeoutMs: boundedOption("timeoutMs", options.timeoutMs, 30_000),
    deadlineMs: boundedOption("deadlineMs", options.deadlineMs, undefined),
    retryBaseMs: boundedOption("retryBaseMs", options.retryBaseMs, 1000),
    maxResponseBytes: boundedOption("maxResponseBytes", options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES),
    userAgent,
    log: createLog(options.logger, checkLogLevel(options.logLevel), [apiKey, apiSecret]),
    hooks: options.hooks ?? {},
    dangerouslyAllowBrowser,
    tracing: { enabled: options.tracing !== false, propagate: options.propagateTraceContext !== false },
  });
  const resources = createResources(send, boundedOption("historyLookupPages", options.historyLookupPages, 5));
  return Object.assign(resources, { raw: rawClient(send, baseUrl), request: requestMethod(send) }) as ExchangeClient;
}

/** client.request: any method and path, signed and sent through the pipeline, classified by the route table. */
function requestMethod(send: Send): RequestMethod {
  const run = (method: HttpMethod, path: string, { body, query, ...rest }: RawRequestOptions = {}) => {
    const operation: OperationRef = { operationId: undefined, method, path };
    if (path[0] !== "/" || (body !== undefined && (method === "GET" || method === "DELETE"))) {
      const rule = "the path must start with / and GET and DELETE send no body (they sign {})";
      return Promise.reject(new ExchangeValidationError(`${method} ${path}: ${rule}`, { request: [rule] }, operation));
    }
    const { operationId, idempotency } = classifyRequest(method, path);
    return send({ operation, path, query, body, options: rest, idempotency, check: ambiguityCheck(operationId) });
  };
  return unwrapData(run) as RequestMethod;
}
