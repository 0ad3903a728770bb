import { authHint } from "./error-hints.js";
import type { ErrCode } from "./spec.js";

/**
 * What to do about an error, from the interface document's handling classes:
 * `fix` the request (resending it unchanged does not help), `retry` with
 * backoff, or stop and `escalate` to the operator's support.
 */
export type ErrorAction = "fix" | "retry" | "escalate";

/** The operation a request was for; `operationId` is undefined for `client.request()`. */
export interface OperationRef {
  readonly operationId: string | undefined;
  readonly method: string;
  readonly path: string;
}

/** Field name (or group key such as `non_field_errors`) mapped to its messages. */
export type FieldErrors = Record<string, string[]>;

/**
 * How a request ended, known when its error is built (errors are built once, with final fields): the number of
 * attempts, why a retryable failure was not retried, and whether a recurring 5xx calls for escalation.
 */
export interface Outcome {
  readonly attempts: number;
  readonly notRetriedReason?: string | undefined;
  readonly escalate?: boolean | undefined;
}

/**
 * The base class of every error this package throws, so one
 * `catch (e) { if (e instanceof ExchangeError) ... }` covers them all.
 */
export class ExchangeError extends Error {
  /** The operation, when the error belongs to a request. */
  readonly operation: OperationRef | undefined;
  /** Why the client did not retry, when it could have but chose not to (see initiate). */
  readonly notRetriedReason: string | undefined;
  /** How many attempts were made, retries included. */
  readonly attempts: number;

  constructor(
    message: string,
    options: { operation?: OperationRef | undefined; cause?: unknown; outcome?: Outcome | undefined } = {},
  ) {
    const reason = options.outcome?.notRetriedReason;
    super(
      reason === undefined ? message : `${message} (not retried: ${reason})`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.notRetriedReason = reason;
    this.attempts = options.outcome?.attempts ?? 1;
    this.name = "ExchangeError";
    this.operation = options.operation;
  }
}

/**
 * Bad configuration at construction: missing credentials, a browser without opt-in, an option out of its range.
 *
 * @example
 * catch (e) { if (e instanceof ExchangeConfigurationError) console.error(e.option, e.message) }
 */
export class ExchangeConfigurationError extends ExchangeError {
  /** The option at fault (`"maxRetries"`), when there is one. */
  declare readonly option: string | undefined;

  constructor(message: string, option?: string) {
    super(message);
    this.name = "ExchangeConfigurationError";
    this.option = option;
  }
}

/**
 * A local input check failed; nothing was sent.
 *
 * @example
 * try { await client.payouts.createQuotation(body) }
 * catch (e) { if (e instanceof ExchangeValidationError) console.log(e.fieldErrors) }
 */
export class ExchangeValidationError extends ExchangeError {
  declare readonly fieldErrors: FieldErrors;
  declare readonly action: ErrorAction;

  constructor(message: string, fieldErrors: FieldErrors, operation?: OperationRef) {
    super(message, { operation });
    this.name = "ExchangeValidationError";
    this.fieldErrors = fieldErrors;
    this.action = "fix";
  }
}

/** A quotation past its `expiry_time` was passed to initiate; nothing was sent. Create a new quotation. */
export class QuotationExpiredError extends ExchangeValidationError {
  declare readonly quotationId: string | undefined;
  declare readonly expiryTime: string;

  constructor(quotationId: string | undefined, expiryTime: string, operation?: OperationRef) {
    super(
      `quotation ${quotationId ?? ""} expired at ${expiryTime}; create a new one`,
      { quotation_id: [`expired at ${expiryTime}`] },
      operation,
    );
    this.name = "QuotationExpiredError";
    this.quotationId = quotationId;
    this.expiryTime = expiryTime;
  }
}

/**
 * The service answered with its error envelope (`status: false`), or with a
 * non-2xx status and an envelope.
 *
 * @example
 * catch (e) {
 *   if (isExchangeApiError(e, "USR_UNVERIFIED")) await client.customers.waitForKyc(id);
 *   else if (e instanceof ExchangeApiError && e.action === "fix") report(e.fieldErrors);
 * }
 */
export class ExchangeApiError<C extends ErrCode = ErrCode> extends ExchangeError {
  /** HTTP status. */
  declare readonly status: number;
  /** The envelope's err_code; undefined only where the service does not send one (remittance quotation). */
  declare readonly errCode: C | undefined;
  /** `errors` (or the remittance quotation's `error`) normalized: every value is an array of strings. */
  declare readonly fieldErrors: FieldErrors;
  /** The parsed response body, as received. */
  declare readonly body: unknown;
  /** The response headers. */
  declare readonly headers: Headers | undefined;
  /** What to do: see the document's handling classes. `escalate` also after a 5xx that kept recurring. */
  declare readonly action: ErrorAction;

  constructor(init: {
    status: number;
    body: Record<string, unknown>;
    operation: OperationRef;
    headers?: Headers | undefined;
    outcome?: Outcome | undefined;
  }) {
    const { status, body } = init;
    const text = typeof body.message === "string" && body.message !== "" ? body.message : `HTTP ${status}`;
    const errCode = typeof body.err_code === "string" ? body.err_code : undefined;
    // A 401 says which credential to check and why it is usually wrong; the service's text alone does not.
    const message = status === 401 ? `${text} (401 ${errCode ?? "without err_code"}): ${authHint(errCode)}` : text;
    super(message, { operation: init.operation, outcome: init.outcome });
    this.name = "ExchangeApiError";
    this.status = status;
    this.errCode = typeof body.err_code === "string" ? (body.err_code as C) : undefined;
    // The remittance quotation puts its field errors under `error` instead of `errors`.
    this.fieldErrors = normalizeFieldErrors(body.errors ?? body.error);
    this.body = body;
    this.headers = init.headers;
    this.action = init.outcome?.escalate ? "escalate" : classifyApiError(status, this.errCode, this.fieldErrors);
  }
}

/**
 * The answer was not the JSON envelope: a proxy's HTML 502, an empty body,
 * truncated JSON. Keeps the status and the text received.
 */
export class ExchangeResponseError extends ExchangeError {
  declare readonly status: number;
  /** The body text received (first 2,000 characters). */
  declare readonly text: string;
  declare readonly headers: Headers | undefined;
  declare readonly action: ErrorAction;

  constructor(status: number, text: string, operation: OperationRef, headers?: Headers, outcome?: Outcome) {
    super(
      `HTTP ${status}: expected the JSON envelope, got ${text.trim() ? JSON.stringify(text.slice(0, 80)) : "an empty body"}`,
      {
        operation,
        outcome,
      },
    );
    this.name = "ExchangeResponseError";
    this.status = status;
    this.text = text.slice(0, 2000);
    this.headers = headers;
    this.action = outcome?.escalate ? "escalate" : responseAction(status);
  }
}

/**
 * The answer was a redirect, which the client never follows: the signed headers (and the body of a 307/308) would
 * go to wherever `Location` points, and that answer would come back as the service's. The interface document has
 * no redirects, so one means the base URL is not the service's (http for https, an old host, a path a gateway
 * moves) or something in between redirects. Not retried: set `baseUrl` to the URL the service answers on.
 *
 * `locationOrigin` is the origin of `Location` only (scheme, host, port), never its path or query, which may carry
 * tokens; undefined where it is unknown: no usable `Location`, or a browser, which answers `redirect: "manual"`
 * with an opaque redirect (`status` 0, no headers).
 *
 * @example
 * catch (e) { if (e instanceof ExchangeRedirectError) console.error(`baseUrl redirects to ${e.locationOrigin}`) }
 */
export class ExchangeRedirectError extends ExchangeError {
  /** Always `"fix"`: the base URL (or what sits in front of the service) needs changing. */
  readonly action: ErrorAction = "fix";
  /** The redirect's status (301 to 308, any 3xx); 0 where the runtime hides it (opaque or already followed). */
  declare readonly status: number;
  /** `https://host:port` of `Location`; undefined when there was none, or the runtime hid it. */
  declare readonly locationOrigin: string | undefined;
  /** True when a `fetch` passed in the options followed the redirect itself: the request reached that origin. */
  declare readonly followed: boolean;

  constructor(
    redirect: { status: number; locationOrigin: string | undefined; followed: boolean },
    operation: OperationRef,
    outcome?: Outcome,
  ) {
    const { status, locationOrigin, followed } = redirect;
    const where = locationOrigin === undefined ? "an origin the runtime does not show" : locationOrigin;
    const what = followed
      ? `the fetch given in the options followed a redirect to ${where} (it ignored redirect: "manual"); its answer was discarded`
      : `${status === 0 ? "an opaque redirect" : `HTTP ${status}`} to ${where} was not followed, so no signed request went there`;
    super(`${what}: the service does not redirect, so set baseUrl to the URL it answers on`, { operation, outcome });
    this.name = "ExchangeRedirectError";
    this.status = status;
    this.locationOrigin = locationOrigin;
    this.followed = followed;
  }
}

/**
 * The answer was larger than `maxResponseBytes`: its `Content-Length` said so (nothing was read), or reading stopped
 * at the limit and the connection was closed. Never asked for again (the same request would bring the same
 * answer); for an operation that is not safe to repeat it is the `cause` of an ExchangeAmbiguousResultError, since
 * an answer arrived and the request may have been processed.
 */
export class ExchangeResponseTooLargeError extends ExchangeError {
  /** Always `"escalate"`: no answer the interface document describes comes near the limit. */
  readonly action: ErrorAction = "escalate";
  /** The HTTP status of the answer. */
  declare readonly status: number;
  /** The limit in force, in bytes. */
  declare readonly maxResponseBytes: number;
  /** The `Content-Length` that declared more than the limit; undefined when reading stopped at the limit. */
  declare readonly declaredBytes: number | undefined;
  /** The answer's headers, redacted. */
  declare readonly headers: Headers | undefined;

  constructor(
    answer: { status: number; maxResponseBytes: number; declaredBytes: number | undefined; headers?: Headers },
    operation: OperationRef,
    outcome?: Outcome,
  ) {
    const { status, maxResponseBytes, declaredBytes } = answer;
    const how =
      declaredBytes === undefined
        ? "reading stopped there"
        : `its Content-Length is ${declaredBytes}, so none of it was read`;
    super(
      `HTTP ${status}: the answer is larger than maxResponseBytes (${maxResponseBytes} bytes); ${how}. The service's ` +
        "answers are far smaller: check baseUrl, or raise maxResponseBytes if such an answer is expected",
      { operation, outcome },
    );
    this.name = "ExchangeResponseTooLargeError";
    this.status = status;
    this.maxResponseBytes = maxResponseBytes;
    this.declaredBytes = declaredBytes;
    this.headers = answer.headers;
  }
}

/**
 * fetch itself failed (DNS, refused connection, reset): no answer arrived. Retried. The message names the base URL
 * and where it came from (the baseUrl option or EXCHANGE_BASE_URL).
 */
export class ExchangeNetworkError extends ExchangeError {
  readonly action: ErrorAction = "retry";

  constructor(
    cause: unknown,
    operation: OperationRef,
    redact: (text: string) => string = (text) => text,
    outcome?: Outcome,
    /** What to check, appended to the message (the client's names the base URL). */
    hint?: string,
  ) {
    const what = `network error: ${describeCause(cause)}`;
    super(redact(hint === undefined ? what : `${what}; ${hint}`), { operation, cause, outcome });
    this.name = "ExchangeNetworkError";
  }
}

/** The message of a fetch failure and of the error under it (undici: "fetch failed" caused by "connect ECONNREFUSED"). */
function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause instanceof Error ? cause.cause.message : undefined;
  return inner === undefined || inner === "" || cause.message.includes(inner)
    ? cause.message
    : `${cause.message} (${inner})`;
}

/**
 * A time limit passed: `scope: "attempt"` is `timeoutMs` (one attempt; retried),
 * `scope: "deadline"` is `deadlineMs` (the whole call, retries included; final).
 */
export class ExchangeTimeoutError extends ExchangeError {
  readonly action: ErrorAction = "retry";
  declare readonly timeoutMs: number;
  declare readonly scope: "attempt" | "deadline";

  constructor(
    scope: "attempt" | "deadline",
    timeoutMs: number,
    operation: OperationRef | undefined,
    outcome?: Outcome,
  ) {
    super(`${scope === "attempt" ? "timeoutMs" : "deadlineMs"} (${timeoutMs} ms) passed without an answer`, {
      operation,
      outcome,
    });
    this.name = "ExchangeTimeoutError";
    this.timeoutMs = timeoutMs;
    this.scope = scope;
  }
}

/**
 * An operation that is not safe to repeat failed in a way that leaves its outcome unknown: the answer was lost,
 * the attempt timed out, or the service answered an error that does not prove the request was not processed
 * (500, NET_TIMEOUT, UNKNOWN_ERROR). The client did not repeat it, because a repeat could create a second record
 * or use up a KYC update. `check` says what to look at before sending it again; `cause` is the failure itself.
 *
 * @example
 * catch (e) {
 *   if (e instanceof ExchangeAmbiguousResultError) console.warn(`${e.operation?.operationId}: check ${e.check}`);
 * }
 */
export class ExchangeAmbiguousResultError extends ExchangeError {
  declare readonly cause: ExchangeError;
  /** What to check before sending the request again, e.g. the customer's EDD records (`client.payins.listEdd`). */
  declare readonly check: string;

  constructor(cause: ExchangeError, check: string, operation: OperationRef | undefined) {
    super(
      `${operation?.operationId ?? operation?.path ?? "request"}: the request may have been processed (${cause.message}); ` +
        `it was not repeated because it is not safe to repeat: check ${check} before sending it again`,
      { operation, cause, outcome: { attempts: cause.attempts } },
    );
    this.name = "ExchangeAmbiguousResultError";
    this.check = check;
  }
}

/**
 * An initiate call succeeded, but the client could not tell which order it created: the answer (whose shape the
 * document does not publish) carries no `id` and `status`, and the order was not found in the history by the
 * body's `client_reference_id` (or none was sent). The order exists: do not send the request again. `answer` is
 * the answer's `data`, as received.
 *
 * @example
 * catch (e) { if (e instanceof ExchangeOrderNotFoundError) console.warn("created, not identified", e.answer) }
 */
export class ExchangeOrderNotFoundError extends ExchangeError {
  /** Always `"fix"`: sending the request again would create a second order (or be refused as a duplicate). */
  readonly action: ErrorAction = "fix";
  /** The initiate answer's `data`, as received. */
  declare readonly answer: unknown;

  constructor(operation: OperationRef, answer: unknown, why: string) {
    super(
      `${operation.operationId ?? operation.path}: the order was created, but the answer does not identify it ` +
        `(no id and status) and ${why}; do not send it again: find it in the history later`,
      { operation },
    );
    this.name = "ExchangeOrderNotFoundError";
    this.answer = answer;
  }
}

/** The caller's AbortSignal fired. Never retried; `cause` is the signal's reason. */
export class ExchangeAbortError extends ExchangeError {
  constructor(reason: unknown, operation?: OperationRef, outcome?: Outcome) {
    super("the request was aborted", { operation, cause: reason, outcome });
    this.name = "ExchangeAbortError";
  }
}

/** A `waitFor` gave up before the record reached a final status. `lastRecord` is what it saw last. */
export class ExchangeWaitTimeoutError<T = unknown> extends ExchangeError {
  declare readonly lastRecord: T | undefined;
  declare readonly waitedMs: number;

  constructor(what: string, waitedMs: number, lastRecord: T | undefined) {
    super(`${what} did not reach a final status within ${waitedMs} ms`);
    this.name = "ExchangeWaitTimeoutError";
    this.lastRecord = lastRecord;
    this.waitedMs = waitedMs;
  }
}

/**
 * True when `error` is an ExchangeApiError, and, if codes are given, when
 * its errCode is one of them (narrowing `errCode` to those codes).
 *
 * @example
 * if (isExchangeApiError(e, "PAYOUT_QUOTATION_EXPIRED")) quotation = await client.payouts.createQuotation(q);
 */
export function isExchangeApiError<C extends ErrCode = ErrCode>(
  error: unknown,
  ...codes: C[]
): error is ExchangeApiError<C> & { readonly errCode: C } {
  if (!(error instanceof ExchangeApiError)) return false;
  return codes.length === 0 || (codes as string[]).includes(error.errCode as string);
}

// --- classification -----------------------------------------------------------------------------------

const RETRY_CODES = new Set<string | undefined>([
  "NET_TIMEOUT",
  "TOO_MANY_REQUESTS",
  "SYS_INTERNAL_ERROR",
  "SYS_SERVICE_UNAVAILABLE",
]);
const ESCALATE_CODES = new Set<string | undefined>(["RISK_AML_FAILED"]);
const RETRY_STATUS = new Set([429, 500, 503]);
// Not the service's own answers but a gateway's: transient by nature.
const GATEWAY_RETRY = new Set([429, 500, 502, 503, 504]);

/** The handling class of an answer that is not the envelope: a gateway's 429/5xx is transient, the rest is not. */
export function responseAction(status: number): ErrorAction {
  return GATEWAY_RETRY.has(status) ? "retry" : "escalate";
}

/** The document's handling class of an error envelope. */
export function classifyApiError(status: number, errCode: string | undefined, fieldErrors: FieldErrors): ErrorAction {
  if (ESCALATE_CODES.has(errCode)) return "escalate";
  if (RETRY_CODES.has(errCode)) return "retry";
  // UNKNOWN_ERROR means "retry once" in the general table, but E5 and E9 also use it for field
  // errors, which a resend cannot fix.
  if (errCode === "UNKNOWN_ERROR") return Object.keys(fieldErrors).length === 0 ? "retry" : "fix";
  if (RETRY_STATUS.has(status)) return "retry";
  return status >= 500 ? "escalate" : "fix";
}

/**
 * `errors` in any of the forms the service sends (object of arrays, object of
 * strings, nested objects, a string, an empty object or nothing) as
 * `Record<string, string[]>`. Strings go under `non_field_errors`; nested
 * objects are flattened with dotted keys.
 */
export function normalizeFieldErrors(raw: unknown): FieldErrors {
  const out: FieldErrors = {};
  if (typeof raw === "string" || Array.isArray(raw)) addFieldErrors(out, "non_field_errors", raw);
  else addFieldErrors(out, "", raw);
  return out;
}

const isBlank = (value: unknown): boolean => value === null || value === undefined || value === "";

/** Adds `value`'s messages under `key` (nested objects under dotted keys), skipping blanks. */
function addFieldErrors(out: FieldErrors, key: string, value: unknown): void {
  if (isBlank(value)) return;
  if (Array.isArray(value)) {
    for (const item of value) {
      if (item !== null && typeof item === "object" && !Array.isArray(item)) addFieldErrors(out, key, item);
      else if (!isBlank(item)) (out[key] ??= []).push(String(item));
    }
  } else if (typeof value === "object") {
    for (const [k, v] of Object.entries(value as object)) addFieldErrors(out, key === "" ? k : `${key}.${k}`, v);
  } else {
    (out[key] ??= []).push(String(value));
  }
}
