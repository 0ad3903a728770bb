// The faults the sandbox can inject, and what each failing kind answers. The answers are the interface document's
// general error cases (its "Retry with backoff" class and UNKNOWN_ERROR): the status, err_code and message of
// each, with the envelope every error uses, so a client meets exactly what the service would send.
import { ApiError } from "../domain/api-error.js";

/** Faults on a request: answer an error, wait, drop the connection, or perform the operation and drop the answer. */
export const REQUEST_FAULTS = [
  "HTTP_429",
  "HTTP_500",
  "HTTP_503",
  "NET_TIMEOUT",
  "UNKNOWN_ERROR",
  "DELAY",
  "RESET",
  "DROP_AFTER_COMMIT",
] as const;

/** Faults on the webhook deliveries of an event. */
export const WEBHOOK_FAULTS = ["DUPLICATE_DELIVERY", "OUT_OF_ORDER", "DELAYED_DELIVERY"] as const;

/** A fault on a request (`operation`), e.g. "DROP_AFTER_COMMIT". */
export type RequestFaultKind = (typeof REQUEST_FAULTS)[number];
/** A fault on the webhook deliveries of an event (`event_type`), e.g. "OUT_OF_ORDER". */
export type WebhookFaultKind = (typeof WEBHOOK_FAULTS)[number];
/** Any fault the sandbox injects. */
export type FaultKind = RequestFaultKind | WebhookFaultKind;

/** The kinds that answer an error envelope and change nothing. */
export type FailingFaultKind = Exclude<RequestFaultKind, "DELAY" | "RESET" | "DROP_AFTER_COMMIT">;

export function isRequestFault(kind: string): kind is RequestFaultKind {
  return (REQUEST_FAULTS as readonly string[]).includes(kind);
}

export function isWebhookFault(kind: string): kind is WebhookFaultKind {
  return (WEBHOOK_FAULTS as readonly string[]).includes(kind);
}

export function isFailingFault(kind: RequestFaultKind): kind is FailingFaultKind {
  return kind !== "DELAY" && kind !== "RESET" && kind !== "DROP_AFTER_COMMIT";
}

/** Status, err_code and message of each failing kind, as the document's error tables give them. */
export const FAILING_ANSWERS = {
  HTTP_429: { status: 429, code: "TOO_MANY_REQUESTS", message: "Too many requests" },
  HTTP_500: { status: 500, code: "SYS_INTERNAL_ERROR", message: "Internal Server Error" },
  HTTP_503: { status: 503, code: "SYS_SERVICE_UNAVAILABLE", message: "Service unavailable" },
  NET_TIMEOUT: { status: 400, code: "NET_TIMEOUT", message: "Request timed out" },
  UNKNOWN_ERROR: { status: 400, code: "UNKNOWN_ERROR", message: "Unknown error" },
} as const satisfies Record<FailingFaultKind, { status: number; code: ApiError["code"]; message: string }>;

/**
 * The error a failing fault answers; a 429 carries `Retry-After` (seconds) when the fault asked for one.
 *
 * @example
 * failingAnswer("HTTP_429", 2); // ApiError 429 TOO_MANY_REQUESTS with headers { "Retry-After": "2" }
 */
export function failingAnswer(kind: FailingFaultKind, retryAfter?: number): ApiError {
  const { status, code, message } = FAILING_ANSWERS[kind];
  const headers: Record<string, string> = retryAfter === undefined ? {} : { "Retry-After": String(retryAfter) };
  // errors is the empty object the document gives internal errors (and the client reads as "retry").
  return new ApiError(status, code, message, {}, headers);
}
