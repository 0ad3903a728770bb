import { canonicalize } from "@exchange-kit/signing";
import { createFinalURL, createQuerySerializer, defaultPathSerializer } from "openapi-fetch";
import {
  ExchangeAbortError,
  ExchangeAmbiguousResultError,
  ExchangeApiError,
  ExchangeError,
  ExchangeNetworkError,
  ExchangeResponseError,
  ExchangeTimeoutError,
  ExchangeValidationError,
  type OperationRef,
} from "./errors.js";
import type { Log } from "./logger.js";
import { readJson } from "./read-json.js";
import { createRedactor } from "./redact.js";
import { retryDelay, sleep } from "./retry.js";
import { mayRepeat, type IdempotencyClass } from "./retry-safety.js";
import { signatureHeaders } from "./signing-middleware.js";

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

export interface TransportSettings {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly fetch: typeof fetch | undefined;
  readonly maxRetries: number;
  readonly timeoutMs: number;
  readonly deadlineMs: number | undefined;
  readonly retryBaseMs: number;
  readonly userAgent: string;
  readonly log: Log;
  readonly hooks: Hooks;
  readonly dangerouslyAllowBrowser: boolean;
}

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
   * "data" (default): unwrap the envelope and throw on an error answer. "response" (client.raw): resolve to the
   * answer as received, success or error, once no retry follows; only failures without an answer throw.
   */
  readonly answer?: "data" | "response" | undefined;
}

export type Send = <T = unknown>(call: Call) => Promise<Sent<T>>;

const MAX_TIMER_MS = 2 ** 31 - 1;

/** `run` resolving to the envelope's `data`, with `.withResponse` resolving to `{ data, response }`. */
export function unwrapData<A extends unknown[]>(run: (...args: A) => Promise<Sent>) {
  return Object.assign((...args: A) => run(...args).then((sent) => sent.data), { withResponse: run });
}

/** True for failures a retry may fix: the document's retry class, network errors, attempt timeouts. */
function isRetryable(error: unknown): error is ExchangeError {
  if (error instanceof ExchangeApiError || error instanceof ExchangeResponseError) return error.action === "retry";
  if (error instanceof ExchangeTimeoutError) return error.scope === "attempt";
  return error instanceof ExchangeNetworkError;
}

// One query writer for every path (resource methods, client.request, client.raw): openapi-fetch's, so the URL of
// a call is the URL the raw client would build (undefined and null left out, arrays as repeated keys).
const writeQuery = createQuerySerializer();

/** The URL of a call: base + filled-in path + query. */
function buildUrl(baseUrl: string, path: string, query: Record<string, unknown>): string {
  return createFinalURL(path, { baseUrl, params: { query }, querySerializer: writeQuery, pathSerializer: defaultPathSerializer });
}

const utf8 = new TextEncoder();

/** The answer handed to openapi-fetch (client.raw): its `json()` reads keys with escapes correctly (see read-json.ts). */
class Answer extends Response {
  override async json(): Promise<any> {
    return readJson(await this.text());
  }
}

/** Marks an error the client could have retried but did not, and says why. */
function notRetried<E extends ExchangeError>(error: E, reason: string): E {
  error.notRetriedReason = reason;
  error.message += ` (not retried: ${reason})`;
  return error;
}

/** Creates the function every resource method, `client.request` and the helpers send through. */
export function createTransport(settings: TransportSettings): Send {
  const { apiKey, apiSecret, log, hooks } = settings;
  const redact = createRedactor([apiKey, apiSecret]);
  // Called as a plain function, looked up per call: Workers reject fetch called with a foreign `this`, and
  // a fetch installed after construction (polyfills, test mocks) is used.
  const fetchImpl = settings.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));

  return async function send<T>(call: Call): Promise<Sent<T>> {
    const { operation, options = {}, lookup } = call;
    const { method } = operation;
    const { signal } = options;
    const started = Date.now();
    const deadlineMs = options.deadlineMs ?? settings.deadlineMs;
    const deadlineAt = Math.min(call.deadlineAt ?? Infinity, started + (deadlineMs ?? Infinity));
    const deadlineTotal = deadlineAt - started;
    const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
    const maxRetries = options.maxRetries ?? settings.maxRetries;
    const url =
      call.url ??
      buildUrl(settings.baseUrl, call.path, options.extraQuery === undefined ? (call.query ?? {}) : { ...call.query, ...options.extraQuery });
    const name = operation.operationId ?? operation.path;
    const answerOnly = call.answer === "response";
    let body: string | undefined = call.bodyText;
    if (body === undefined && call.body !== undefined) {
      try {
        // The exact string that is signed is the string that is sent.
        body = canonicalize(call.body);
      } catch (cause) {
        const message = (cause as Error).message;
        throw new ExchangeValidationError(`${name}: the body is not JSON: ${message}`, { body: [message] }, operation);
      }
    }
    // client.raw: the last answer as received, handed back when the call ends on an error answer.
    let lastAnswer: Response | undefined;

    /** One attempt: sign with a fresh timestamp, send, read, parse. */
    const attempt = async (attemptNo: number): Promise<Sent> => {
      if (signal?.aborted) throw new ExchangeAbortError(signal.reason, operation);
      const remaining = deadlineAt - Date.now();
      if (remaining <= 0) throw new ExchangeTimeoutError("deadline", deadlineTotal, operation);

      // Every attempt is signed afresh, so a retry never carries a stale timestamp.
      const signed = await signatureHeaders(apiKey, apiSecret, body, settings.dangerouslyAllowBrowser);
      log.secret(signed["X-SIGNATURE"]!);
      const headers: Record<string, string> = { "User-Agent": settings.userAgent, ...options.headers, ...signed };

      // undici's bookkeeping for a fetch signal costs more than the rest of the client together, so a signal is
      // only made when there is a time limit; without one the caller's own signal (if any) is passed as is.
      let timedOut: "attempt" | "deadline" | undefined;
      const limit = Math.min(timeoutMs, remaining);
      const controller = limit < MAX_TIMER_MS ? new AbortController() : undefined;
      const timer =
        controller &&
        setTimeout(() => {
          timedOut = remaining <= timeoutMs ? "deadline" : "attempt";
          controller.abort();
        }, limit);
      const onAbort = (): void => controller?.abort(signal?.reason);
      if (controller) signal?.addEventListener("abort", onAbort);
      const failure = (cause: unknown): ExchangeError =>
        signal?.aborted
          ? new ExchangeAbortError(signal.reason, operation)
          : timedOut !== undefined
            ? new ExchangeTimeoutError(timedOut, timedOut === "deadline" ? deadlineTotal : timeoutMs, operation)
            : new ExchangeNetworkError(cause, operation, redact.text);

      try {
        if (hooks.onRequest) await hooks.onRequest({ operation, url, method, headers, body, attempt: attemptNo });
        if (log.debug) log.write("debug", `exchange: ${method} ${url} (attempt ${attemptNo})`, { headers });
        const sentAt = Date.now();
        let response: Response;
        try {
          response = await fetchImpl(url, { method, headers, body, signal: controller?.signal ?? signal });
        } catch (cause) {
          throw failure(cause);
        }
        if (hooks.onResponse) await hooks.onResponse({ operation, url, method, response, attempt: attemptNo, durationMs: Date.now() - sentAt });
        let text: string;
        try {
          text = await response.text();
        } catch (cause) {
          throw failure(cause);
        }
        if (log.debug) log.write("debug", `exchange: ${response.status} from ${method} ${url} in ${Date.now() - sentAt} ms`);
        if (answerOnly) {
          // Text with a backslash may hold an escaped key: with a Content-Length, openapi-fetch reads a success
          // through answer.json() (the safe reader) instead of its own JSON.parse (an error answer it always reads
          // with JSON.parse). Other text is safe for JSON.parse and skips the encoding.
          let headers = response.headers;
          if (text.includes("\\")) {
            headers = new Headers(response.headers);
            headers.set("content-length", String(utf8.encode(text).byteLength));
          }
          const answer = new Answer(text, { status: response.status, statusText: response.statusText, headers });
          // A success is not read here: openapi-fetch parses it once, for the caller.
          if (response.ok) return { data: undefined, response: answer };
          lastAnswer = answer;
        }
        // The envelope: `{ status: true, data }`, or `status: false` with err_code, message and errors.
        let parsed: unknown;
        try {
          parsed = readJson(text);
        } catch {
          // Not JSON: handled below with everything else that is not the envelope.
        }
        if (parsed === null || typeof parsed !== "object" || typeof (parsed as { status?: unknown }).status !== "boolean") {
          throw new ExchangeResponseError(response.status, redact.text(text), operation, redact.headers(response.headers));
        }
        const envelope = parsed as Record<string, unknown>;
        if (response.ok && envelope["status"] === true) return { data: envelope["data"], response };
        // Server-supplied text goes into the error only redacted: a proxy may echo the key or a signature.
        throw new ExchangeApiError({ status: response.status, body: redact.value(envelope), operation, headers: redact.headers(response.headers) });
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      }
    };

    for (let attemptNo = 1; ; attemptNo++) {
      try {
        lastAnswer = undefined;
        return (await attempt(attemptNo)) as Sent<T>;
      } catch (error) {
        if (!(error instanceof ExchangeError)) throw error;
        // client.raw returns an error answer as openapi-fetch's `error` once it is not retried.
        const giveUp = (thrown: ExchangeError): Sent<T> => {
          if (answerOnly && lastAnswer !== undefined) return { data: undefined as T, response: lastAnswer };
          throw thrown;
        };
        error.attempts = attemptNo;
        // After an uncertain attempt, "this reference already exists" means that attempt created the order.
        if (lookup !== undefined && attemptNo > 1 && (error as ExchangeApiError).errCode?.endsWith("_DUPLICATE_CLIENT_REF_ID")) {
          const found = await lookup(deadlineAt);
          if (found !== undefined) return found as Sent<T>;
        }
        const retryable = isRetryable(error);
        // The outcome of an unsafe call is unknown unless the failure proves it was not processed: say so
        // instead of repeating it or reporting a plain failure.
        if (retryable && !mayRepeat(call.idempotency, error)) {
          if (answerOnly && lastAnswer !== undefined) return giveUp(error);
          const ambiguous = new ExchangeAmbiguousResultError(error, call.check ?? "whether the request took effect", operation);
          log.write("error", `exchange: ${ambiguous.message}`);
          throw ambiguous;
        }
        // UNKNOWN_ERROR: "retry once" in the document.
        const limit = (error as ExchangeApiError).errCode === "UNKNOWN_ERROR" ? Math.min(1, maxRetries) : maxRetries;
        if (!retryable || attemptNo > limit) {
          // A 5xx that keeps recurring: the document says stop and escalate.
          if (retryable && attemptNo > 1 && (error as ExchangeApiError).status >= 500) (error as ExchangeApiError).action = "escalate";
          log.write(retryable ? "error" : "debug", `exchange: ${name} failed after ${attemptNo} attempt(s): ${error.message}`);
          return giveUp(error);
        }
        if (call.noRetry !== undefined) return giveUp(notRetried(error, call.noRetry));
        const retryAfter = (error as Partial<ExchangeApiError>).headers?.get("retry-after");
        const delay = retryDelay(retryAfter, attemptNo, settings.retryBaseMs, deadlineAt);
        if (typeof delay === "string") return giveUp(notRetried(error, delay));
        log.write("warn", `exchange: ${name} attempt ${attemptNo} failed (${error.message}); retrying in ${Math.round(delay)} ms`);
        await hooks.onRetry?.({ operation, attempt: attemptNo, delayMs: delay, error });
        await sleep(delay, signal, operation);
        if (lookup !== undefined) {
          let found: Sent | undefined;
          try {
            found = await lookup(deadlineAt);
          } catch (lookupError) {
            if (lookupError instanceof ExchangeAbortError) throw lookupError;
            throw notRetried(error, `the order history could not be checked (${(lookupError as Error).message})`);
          }
          if (found !== undefined) {
            log.write("info", `exchange: ${name}: attempt ${attemptNo} had created the order; not creating it again`);
            return found as Sent<T>;
          }
        }
      }
    }
  };
}
