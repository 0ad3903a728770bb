// A failed attempt as the retry policy sees it, and how its error is built once the call's outcome is known.
import {
  ExchangeApiError,
  type ExchangeError,
  ExchangeResponseError,
  ExchangeResponseTooLargeError,
  classifyApiError,
  normalizeFieldErrors,
  responseAction,
  type OperationRef,
  type Outcome,
} from "./errors.js";
import type { BodyTooLarge } from "./read-limited-body.js";
import type { Redactor } from "./redact.js";
import type { AttemptFailure } from "./retry-decision.js";
import { notProcessedAnswer } from "./retry-safety.js";

/** A failed attempt that a retry may fix. */
export interface Failed extends AttemptFailure {
  /**
   * Builds the attempt's error once the outcome (attempts, why not retried, escalation) is known, so that every
   * error is built once, with its final fields.
   */
  readonly make: (outcome: Outcome) => ExchangeError;
  /** client.raw: the answer as received; the call resolves to it when it ends on this failure. */
  readonly answer?: Response | undefined;
  /** The error envelope's answer (its body read): a delete resolved as deleted earlier resolves with it. */
  readonly response?: Response | undefined;
}

/** True for a failed attempt, false for a call's result. */
export const isFailed = (result: object): result is Failed => "make" in result;

/**
 * An answer over maxResponseBytes: not retried (the same request brings the same answer), and ambiguous for a call
 * that is not safe to repeat (it was answered, so it may have been processed).
 */
export function oversize(
  cause: BodyTooLarge,
  response: Response,
  operation: OperationRef,
  max: number,
  redact: Redactor,
): Failed {
  const { status } = response;
  const headers = redact.headers(response.headers);
  const make = (outcome: Outcome) =>
    new ExchangeResponseTooLargeError(
      { status, maxResponseBytes: max, declaredBytes: cause.declaredBytes, headers },
      operation,
      outcome,
    );
  const notProcessed = notProcessedAnswer(status, undefined);
  return { retryable: false, notProcessed, unread: true, status, make };
}

/**
 * An answer that is not the JSON envelope (a proxy's page, an empty body): retried by its status class. Its text
 * goes into the error only redacted: a proxy may echo the key or a signature.
 */
export function notAnEnvelope(
  response: Response,
  text: string,
  operation: OperationRef,
  redact: Redactor,
  answer: Response | undefined,
): Failed {
  const { status } = response;
  const make = (outcome: Outcome) =>
    new ExchangeResponseError(status, redact.text(text), operation, redact.headers(response.headers), outcome);
  return {
    retryable: responseAction(status) === "retry",
    notProcessed: notProcessedAnswer(status, undefined),
    status,
    retryAfter: response.headers.get("retry-after"),
    make,
    answer,
  };
}

/** The service's error envelope: retried by its err_code's class, redacted before it reaches the error. */
export function errorEnvelope(
  response: Response,
  envelope: Record<string, unknown>,
  operation: OperationRef,
  redact: Redactor,
  answer: Response | undefined,
): Failed {
  const { status } = response;
  const body = redact.value(envelope);
  const errCode = typeof body.err_code === "string" ? body.err_code : undefined;
  const action = classifyApiError(status, errCode, normalizeFieldErrors(body.errors ?? body.error));
  const make = (outcome: Outcome) =>
    new ExchangeApiError({ status, body, operation, headers: redact.headers(response.headers), outcome });
  return {
    retryable: action === "retry",
    notProcessed: notProcessedAnswer(status, errCode),
    status,
    errCode,
    retryAfter: response.headers.get("retry-after"),
    make,
    answer,
    response,
  };
}
