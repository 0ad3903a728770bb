import { canonicalize, parseJson } from "@exchange-kit/signing";
import { createFinalURL, createQuerySerializer, defaultPathSerializer } from "openapi-fetch";
import {
  ExchangeAbortError,
  ExchangeAmbiguousResultError,
  ExchangeApiError,
  type ExchangeError,
  ExchangeNetworkError,
  ExchangeResponseError,
  ExchangeResponseTooLargeError,
  ExchangeTimeoutError,
  ExchangeValidationError,
  classifyApiError,
  normalizeFieldErrors,
  responseAction,
  type Outcome,
  type OperationRef,
} from "./errors.js";
import type { Log } from "./logger.js";
import { checkCallBounds } from "./options-bounds.js";
import { BodyTooLarge, readLimitedText } from "./read-limited-body.js";
import { createRedactor, type Redactor } from "./redact.js";
import { refuseRedirect } from "./redirect.js";
import { retryDelay, shouldRetry, sleep } from "./retry.js";
import { isAmbiguous, notProcessedAnswer, notSent, type IdempotencyClass } from "./retry-safety.js";
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
  readonly maxResponseBytes: number;
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

/**
 * A failed attempt that a retry may fix: what the retry policy needs to know about it, and how to build its error
 * once the outcome (attempts, why not retried, escalation) is known, so that every error is built once.
 */
class Failed {
  constructor(
    /** The document's retry class, a network error or an attempt timeout. */
    readonly retryable: boolean,
    /** The failure proves the request was not processed (see retry-safety.ts). */
    readonly notProcessed: boolean,
    readonly make: (outcome: Outcome) => ExchangeError,
    readonly status: number | undefined = undefined,
    readonly errCode: string | undefined = undefined,
    readonly retryAfter: string | null | undefined = undefined,
    /** An answer arrived but was not read (over maxResponseBytes): never asked for again. */
    readonly unread = false,
  ) {}
}

/**
 * An answer over maxResponseBytes: not retried (the same request brings the same answer), and ambiguous for a call
 * that is not safe to repeat (it was answered, so it may have been processed).
 */
function oversize(cause: BodyTooLarge, response: Response, operation: OperationRef, max: number, redact: Redactor) {
  const { status } = response;
  const headers = redact.headers(response.headers);
  const make = (outcome: Outcome) =>
    new ExchangeResponseTooLargeError(
      { status, maxResponseBytes: max, declaredBytes: cause.declaredBytes, headers },
      operation,
      outcome,
    );
  return new Failed(false, notProcessedAnswer(status, undefined), make, status, undefined, undefined, true);
}

/**
 * The envelope in an answer's text: `{ status: true, data }`, or `status: false` with err_code, message and errors.
 * Undefined for anything else (not JSON, a proxy's HTML page, JSON without a boolean `status`).
 */
function envelopeIn(text: string): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch {
    return undefined;
  }
  const isEnvelope =
    parsed !== null && typeof parsed === "object" && typeof (parsed as { status?: unknown }).status === "boolean";
  return isEnvelope ? (parsed as Record<string, unknown>) : undefined;
}

/** `fallback` in place of a failed history lookup, unless the caller aborted: that ends the call. */
function unlessAborted<T>(error: unknown, fallback: T): T {
  if (error instanceof ExchangeAbortError) throw error;
  return fallback;
}

/** The body to sign and send: client.raw's serialized text as it is, else the canonical JSON of the value. */
function bodyOf(call: Call, name: string): string | undefined {
  if (call.bodyText !== undefined || call.body === undefined) return call.bodyText;
  try {
    // The exact string that is signed is the string that is sent.
    return canonicalize(call.body);
  } catch (cause) {
    const message = (cause as Error).message;
    throw new ExchangeValidationError(`${name}: the body is not JSON: ${message}`, { body: [message] }, call.operation);
  }
}

// One query writer for every path (resource methods, client.request, client.raw): openapi-fetch's, so the URL of
// a call is the URL the raw client would build (undefined and null left out, arrays as repeated keys).
const writeQuery = createQuerySerializer();

/** The URL of a call: base + filled-in path + query. */
function buildUrl(baseUrl: string, path: string, query: Record<string, unknown>): string {
  return createFinalURL(path, {
    baseUrl,
    params: { query },
    querySerializer: writeQuery,
    pathSerializer: defaultPathSerializer,
  });
}

const utf8 = new TextEncoder();

/** The answer handed to openapi-fetch (client.raw): its `json()` reads keys with escapes correctly (parseJson from @exchange-kit/signing). */
class Answer extends Response {
  // biome-ignore lint/suspicious/noExplicitAny: Response.json() is declared Promise<any>; the override keeps its signature.
  override async json(): Promise<any> {
    return parseJson(await this.text());
  }
}

/**
 * client.raw's answer, for openapi-fetch to parse. Text with a backslash may hold an escaped key: with a
 * Content-Length, openapi-fetch reads a success through answer.json() (the safe reader) instead of its own
 * JSON.parse (an error answer it always reads with JSON.parse). Other text is safe for JSON.parse and skips the
 * encoding.
 */
function rawAnswer(response: Response, text: string): Answer {
  let headers = response.headers;
  if (text.includes("\\")) {
    headers = new Headers(response.headers);
    headers.set("content-length", String(utf8.encode(text).byteLength));
  }
  return new Answer(text, { status: response.status, statusText: response.statusText, headers });
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
    checkCallBounds(options, operation);
    const started = Date.now();
    const deadlineMs = options.deadlineMs ?? settings.deadlineMs;
    const deadlineAt = Math.min(call.deadlineAt ?? Infinity, started + (deadlineMs ?? Infinity));
    const deadlineTotal = deadlineAt - started;
    const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
    const maxRetries = options.maxRetries ?? settings.maxRetries;
    const url =
      call.url ??
      buildUrl(
        settings.baseUrl,
        call.path,
        options.extraQuery === undefined ? (call.query ?? {}) : { ...call.query, ...options.extraQuery },
      );
    const name = operation.operationId ?? operation.path;
    const answerOnly = call.answer === "response";
    const body = bodyOf(call, name);
    // client.raw: the last answer as received, handed back when the call ends on an error answer.
    let lastAnswer: Response | undefined;

    /** One attempt: sign with a fresh timestamp, send, read, parse. */
    const attempt = async (attemptNo: number): Promise<Sent> => {
      const final = { attempts: attemptNo };
      if (signal?.aborted) throw new ExchangeAbortError(signal.reason, operation, final);
      const remaining = deadlineAt - Date.now();
      if (remaining <= 0) throw new ExchangeTimeoutError("deadline", deadlineTotal, operation, final);

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
      // No answer: the caller's abort and the deadline end the call; an attempt timeout or a network error may be
      // retried (an unsafe call only when nothing was sent).
      const failure = (cause: unknown): ExchangeError | Failed =>
        signal?.aborted
          ? new ExchangeAbortError(signal.reason, operation, final)
          : timedOut === "deadline"
            ? new ExchangeTimeoutError("deadline", deadlineTotal, operation, final)
            : timedOut === "attempt"
              ? new Failed(true, false, (outcome) => new ExchangeTimeoutError("attempt", timeoutMs, operation, outcome))
              : new Failed(
                  true,
                  notSent(cause),
                  (outcome) => new ExchangeNetworkError(cause, operation, redact.text, outcome),
                );

      try {
        if (hooks.onRequest) await hooks.onRequest({ operation, url, method, headers, body, attempt: attemptNo });
        if (log.debug) log.write("debug", `exchange: ${method} ${url} (attempt ${attemptNo})`, { headers });
        const sentAt = Date.now();
        let response: Response;
        try {
          // Never "follow": it would send the signed headers (and a 307/308 the body) wherever Location points.
          response = await fetchImpl(url, {
            method,
            headers,
            body,
            signal: controller?.signal ?? signal,
            redirect: "manual",
          });
        } catch (cause) {
          throw failure(cause);
        }
        if (hooks.onResponse)
          await hooks.onResponse({
            operation,
            url,
            method,
            response,
            attempt: attemptNo,
            durationMs: Date.now() - sentAt,
          });
        refuseRedirect(response, url, operation, attemptNo, redact.text);
        let text: string;
        try {
          text = await readLimitedText(response, settings.maxResponseBytes);
        } catch (cause) {
          throw cause instanceof BodyTooLarge
            ? oversize(cause, response, operation, settings.maxResponseBytes, redact)
            : failure(cause);
        }
        if (log.debug)
          log.write("debug", `exchange: ${response.status} from ${method} ${url} in ${Date.now() - sentAt} ms`);
        if (answerOnly) {
          const answer = rawAnswer(response, text);
          // A success is not read here: openapi-fetch parses it once, for the caller.
          if (response.ok) return { data: undefined, response: answer };
          lastAnswer = answer;
        }
        const envelope = envelopeIn(text);
        const { status } = response;
        const retryAfter = response.headers.get("retry-after");
        // Server-supplied text goes into an error only redacted: a proxy may echo the key or a signature.
        if (envelope === undefined) {
          const make = (outcome: Outcome) =>
            new ExchangeResponseError(status, redact.text(text), operation, redact.headers(response.headers), outcome);
          throw new Failed(
            responseAction(status) === "retry",
            notProcessedAnswer(status, undefined),
            make,
            status,
            undefined,
            retryAfter,
          );
        }
        if (response.ok && envelope.status === true) return { data: envelope.data, response };
        const answer = redact.value(envelope);
        const errCode = typeof answer.err_code === "string" ? answer.err_code : undefined;
        const action = classifyApiError(status, errCode, normalizeFieldErrors(answer.errors ?? answer.error));
        const make = (outcome: Outcome) =>
          new ExchangeApiError({ status, body: answer, operation, headers: redact.headers(response.headers), outcome });
        throw new Failed(action === "retry", notProcessedAnswer(status, errCode), make, status, errCode, retryAfter);
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      }
    };

    for (let attemptNo = 1; ; attemptNo++) {
      let failed: Failed;
      try {
        lastAnswer = undefined;
        return (await attempt(attemptNo)) as Sent<T>;
      } catch (thrown) {
        // Final errors (abort, deadline) and a hook's own error end the call as they are.
        if (!(thrown instanceof Failed)) throw thrown;
        failed = thrown;
      }
      /** Ends the call: client.raw gets the last answer (openapi-fetch's `error`), others the error, built now. */
      const giveUp = (outcome: Outcome): Sent<T> => {
        if (answerOnly && lastAnswer !== undefined) return { data: undefined as T, response: lastAnswer };
        throw failed.make(outcome);
      };
      // After an uncertain attempt, "this reference already exists" means that attempt created the order.
      if (lookup !== undefined && attemptNo > 1 && failed.errCode?.endsWith("_DUPLICATE_CLIENT_REF_ID")) {
        const found = await lookup(deadlineAt);
        if (found !== undefined) return found as Sent<T>;
      }
      // An answer too large to read was an answer: initiate may have created the order, which is then in the history.
      if (failed.unread && lookup !== undefined) {
        const found = await lookup(deadlineAt).catch((e) => unlessAborted(e, undefined));
        if (found !== undefined) return found as Sent<T>;
      }
      // The outcome of an unsafe call is unknown unless the failure proves it was not processed: say so
      // instead of repeating it or reporting a plain failure.
      if (isAmbiguous(call.idempotency, failed)) {
        if (answerOnly && lastAnswer !== undefined) return { data: undefined as T, response: lastAnswer };
        const ambiguous = new ExchangeAmbiguousResultError(
          failed.make({ attempts: attemptNo }),
          call.check ?? "whether the request took effect",
          operation,
        );
        log.write("error", `exchange: ${ambiguous.message}`);
        throw ambiguous;
      }
      if (!shouldRetry(failed.retryable, failed.errCode, attemptNo, maxRetries)) {
        // A 5xx that keeps recurring: the document says stop and escalate.
        const escalate = failed.retryable && attemptNo > 1 && (failed.status ?? 0) >= 500;
        if (answerOnly && lastAnswer !== undefined) return { data: undefined as T, response: lastAnswer };
        const error = failed.make({ attempts: attemptNo, escalate });
        log.write(
          failed.retryable ? "error" : "debug",
          `exchange: ${name} failed after ${attemptNo} attempt(s): ${error.message}`,
        );
        throw error;
      }
      if (call.noRetry !== undefined) return giveUp({ attempts: attemptNo, notRetriedReason: call.noRetry });
      const delay = retryDelay(failed.retryAfter, attemptNo, settings.retryBaseMs, deadlineAt);
      if (typeof delay === "string") return giveUp({ attempts: attemptNo, notRetriedReason: delay });
      // This attempt's error, for the log line and onRetry; the call goes on.
      const error = failed.make({ attempts: attemptNo });
      log.write(
        "warn",
        `exchange: ${name} attempt ${attemptNo} failed (${error.message}); retrying in ${Math.round(delay)} ms`,
      );
      await hooks.onRetry?.({ operation, attempt: attemptNo, delayMs: delay, error });
      await sleep(delay, signal, operation);
      if (lookup !== undefined) {
        let found: Sent | undefined;
        try {
          found = await lookup(deadlineAt);
        } catch (lookupError) {
          if (lookupError instanceof ExchangeAbortError) throw lookupError;
          throw failed.make({
            attempts: attemptNo,
            notRetriedReason: `the order history could not be checked (${(lookupError as Error).message})`,
          });
        }
        if (found !== undefined) {
          log.write("info", `exchange: ${name}: attempt ${attemptNo} had created the order; not creating it again`);
          return found as Sent<T>;
        }
      }
    }
  };
}
