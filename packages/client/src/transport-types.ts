// The types around one call: the per-call options and hooks users pass (public), and what the resource methods,
// client.request and client.raw hand the transport (internal).
import type { ExchangeError, OperationRef } from "./errors.js";
import type { Log } from "./logger.js";
import type { IdempotencyClass } from "./spec.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Per-call options every method takes (list methods add their query parameters). */
export interface RequestOptions {
  /** Aborts the call at once, also during a backoff sleep; never retried. */
  signal?: AbortSignal | undefined;
  /** Limit for one attempt, in ms (default: the client's, 30 s). `Infinity` disables it. */
  timeoutMs?: number | undefined;
  /** Limit for the whole call, retries and backoff included, in ms (default: the client's, none). */
  deadlineMs?: number | undefined;
  /** Retries after a retryable failure (default: the client's, 3). */
  maxRetries?: number | undefined;
  /** Extra request headers, e.g. `{ Prefer: "code=400" }` for the mock. They are not signed. */
  headers?: Record<string, string> | undefined;
  /**
   * Query parameters the spec does not declare (the document does not publish the name of the history
   * status filter, for example). Forwarded as given; they are not signed.
   */
  extraQuery?: Record<string, string | number | boolean | null | undefined> | undefined;
}

/** Passed to `hooks.onRequest` before each attempt. Add headers here (tracing); they are not signed. */
export interface RequestEvent {
  readonly operation: OperationRef;
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  /** The exact body sent (the signed canonical JSON), or undefined. */
  readonly body: string | undefined;
  readonly attempt: number;
}

/** Passed to `hooks.onResponse` when an answer arrives, before its body is read (clone it to read it). */
export interface ResponseEvent {
  readonly operation: OperationRef;
  readonly url: string;
  readonly method: string;
  readonly response: Response;
  readonly attempt: number;
  readonly durationMs: number;
}

/** Passed to `hooks.onRetry` before the backoff sleep. */
export interface RetryEvent {
  readonly operation: OperationRef;
  readonly attempt: number;
  readonly delayMs: number;
  readonly error: ExchangeError;
}

/** Observability hooks. A hook that throws fails the call with its error. */
export interface Hooks {
  onRequest?(event: RequestEvent): void | Promise<void>;
  onResponse?(event: ResponseEvent): void | Promise<void>;
  onRetry?(event: RetryEvent): void | Promise<void>;
}

/**
 * The client's tracing settings (options `tracing` and `propagateTraceContext`). Declared here, not in tracing.ts,
 * so that no public declaration file imports @opentelemetry/api, an optional peer a user may not have.
 */
export interface TracingSettings {
  readonly enabled: boolean;
  readonly propagate: boolean;
}

/** The client's settings the transport works with, checked and defaulted by createExchangeClient. */
export interface TransportSettings {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly fetch: typeof fetch | undefined;
  readonly maxRetries: number;
  readonly timeoutMs: number;
  readonly deadlineMs: number | undefined;
  readonly retryBaseMs: number;
  readonly maxResponseBytes: number;
  readonly userAgent: string;
  readonly log: Log;
  readonly hooks: Hooks;
  readonly dangerouslyAllowBrowser: boolean;
  readonly tracing: TracingSettings;
}

/** What a call resolves to: the envelope's data (undefined for client.raw) and the answer. */
export interface Sent<T = unknown> {
  readonly data: T;
  readonly response: Response;
}

/** One logical call: signed, sent, retried, parsed. */
export interface Call {
  readonly operation: OperationRef;
  /** The path with its parameters filled in. */
  readonly path: string;
  readonly query?: Record<string, unknown> | undefined;
  /** The JSON body as a value; undefined for none (GET, DELETE). */
  readonly body?: unknown;
  readonly options?: RequestOptions | undefined;
  /** An absolute deadline inherited from an enclosing helper (pagination, waitFor). */
  readonly deadlineAt?: number | undefined;
  /**
   * For calls that must not run twice (initiate): before each retry, and on a duplicate-reference error
   * after an uncertain attempt, look for what an earlier attempt created; found, it is the result.
   */
  readonly lookup?: ((deadlineAt: number) => Promise<Sent | undefined>) | undefined;
  /** Why this call must not be retried at all (initiate without client_reference_id). */
  readonly noRetry?: string | undefined;
  /** The operation's x-idempotency: an unsafe call is repeated only when it provably was not processed. */
  readonly idempotency: IdempotencyClass;
  /** For unsafe calls: what to check after an ambiguous failure (see ExchangeAmbiguousResultError). */
  readonly check?: string | undefined;
  /** client.raw: the URL openapi-fetch built (instead of path and query). */
  readonly url?: string | undefined;
  /** client.raw: the body as openapi-fetch serialized it, signed and sent as it is (never parsed again). */
  readonly bodyText?: string | undefined;
  /**
   * client.raw: resolve to the answer as received, success or error, once no retry follows (only failures without
   * an answer throw), as the Response this makes of it. Without it: unwrap the envelope, throw on an error answer.
   */
  readonly answerAs?: AnswerAs | undefined;
}

/** client.raw's answer made from the service's Response and the text read from it. */
export type AnswerAs = (response: Response, text: string) => Response;

/** Sends one call through the pipeline; every resource method, `client.request` and `client.raw` use it. */
export type Send = <T = unknown>(call: Call) => Promise<Sent<T>>;
