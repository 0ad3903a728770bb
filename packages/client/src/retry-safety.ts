// When an operation may be sent again after a failure. Each operation's class comes from the spec's
// x-idempotency (generated into the route table): safe operations are repeated after any retryable failure, and so
// are safe-by-reference and safe-delete ones (which also resolve an answer their earlier success causes, see
// earlier-success.ts); guarded ones (initiate) after looking the order up, unsafe ones only when the request provably
// did not reach the service.
import { operationRoutes, type IdempotencyClass, type OperationRoute } from "./spec.js";

export type { IdempotencyClass };

// Failures before a byte was sent: the connection was refused, or the host name did not resolve.
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EAI_NONAME"]);
// Answers that reject the request before it is processed: too many requests, service unavailable.
const NOT_PROCESSED_STATUS = new Set([429, 503]);
const NOT_PROCESSED_CODES = new Set<string | undefined>(["TOO_MANY_REQUESTS", "SYS_SERVICE_UNAVAILABLE"]);

/** The error codes along a cause chain (AggregateError members included: a refused IPv4 and IPv6 pair). */
function causeCodes(error: unknown, depth = 0): string[] {
  if (error === null || typeof error !== "object" || depth > 5) return [];
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  const own = typeof code === "string" ? [code] : [];
  const members = Array.isArray(errors) ? errors.flatMap((e) => causeCodes(e, depth + 1)) : [];
  return [...own, ...members, ...causeCodes(cause, depth + 1)];
}

/** True when a fetch failure proves nothing was sent: the connection was refused or the name did not resolve. */
export function notSent(cause: unknown): boolean {
  const codes = causeCodes(cause);
  return codes.length > 0 && codes.every((code) => NOT_SENT_CODES.has(code));
}

/**
 * True when an answer proves the request was not processed: 429 / 503 (TOO_MANY_REQUESTS,
 * SYS_SERVICE_UNAVAILABLE). A 500, NET_TIMEOUT or UNKNOWN_ERROR proves nothing.
 */
export function notProcessedAnswer(status: number, errCode: string | undefined): boolean {
  return NOT_PROCESSED_CODES.has(errCode) || (errCode === undefined && NOT_PROCESSED_STATUS.has(status));
}

/**
 * True for the classes repeated after any retryable failure: safe, safe-by-reference, safe-delete.
 *
 * @example
 * repeatsFreely("safe-delete"); // true
 * repeatsFreely("guarded"); // false
 */
export const repeatsFreely = (idempotency: IdempotencyClass): boolean =>
  idempotency === "safe" || idempotency === "safe-by-reference" || idempotency === "safe-delete";

/**
 * Whether a failure leaves the outcome of an operation of class `idempotency` unknown to the caller
 * (ExchangeAmbiguousResultError) instead of ending in its own error or a repeat. Never for a safe one (repeatsFreely), nor
 * when the failure proves the request was not processed. Otherwise: a retryable failure of an unsafe operation (it
 * is not repeated), and an answer that was not read (over maxResponseBytes) for any operation that is not safe,
 * since it was answered and is never asked for again (initiate first looks the order up in the history).
 *
 * @example
 * isAmbiguous("unsafe", { retryable: true, notProcessed: false, unread: false }); // true
 * isAmbiguous("guarded", { retryable: false, notProcessed: false, unread: true }); // true
 */
export function isAmbiguous(
  idempotency: IdempotencyClass,
  failure: { readonly retryable: boolean; readonly notProcessed: boolean; readonly unread?: boolean | undefined },
): boolean {
  if (repeatsFreely(idempotency) || failure.notProcessed) return false;
  return failure.unread === true || (failure.retryable && idempotency === "unsafe");
}

// Where to look before sending an unsafe operation again, by operationId. No read of the interface shows a KYC
// submission before its outcome (the customer reads UNVERIFIED either way), so the KYC checks name what does settle
// it: the CUSTOMER webhook event, and for a first submission the document's refusal of a second one.
const KYC_OUTCOME = "the customer's CUSTOMER webhook event (VERIFIED or FAILED): no read shows a pending submission";
const KYC_FIRST = `${KYC_OUTCOME}; sending it again is safe, since the service refuses a second submission with 400 "KYC already exists"`;
const KYC_UPDATE = `${KYC_OUTCOME}; sending it again counts as another update toward the limit of 3 (KYC_UPDATE_LIMIT_EXCEEDED)`;
const BANKS = "the customer's bank accounts (client.banks.list)";
const CHECKS: Record<string, string> = {
  addKycData: KYC_FIRST,
  updateKycSelfie: KYC_UPDATE,
  updateKycTaxInfo: KYC_UPDATE,
  updateKycDocumentInfo: KYC_UPDATE,
  // The document gives no read of it and does not say whether a second submission is refused.
  addPayoutSenderKycData: "with the operator whether the sender KYC was recorded: no read shows it",
  createBankAccount: BANKS,
  createBankAccountForPayout: BANKS,
  generateBankLink: BANKS,
  savePayinEdd: "the customer's EDD records (client.payins.listEdd)",
  savePayoutEdd: "the customer's EDD records (client.payouts.listEdd)",
  // Guarded: ambiguous only when the answer could not be read and the history lookup did not find the order.
  initiatePayin: "the payin history (client.payins.history) for the body's client_reference_id",
  initiatePayout: "the payout history (client.payouts.history) for the body's client_reference_id",
};

/** What to check before repeating `operationId` after an ambiguous failure. */
export function ambiguityCheck(operationId: string | undefined): string {
  return (operationId !== undefined ? CHECKS[operationId] : undefined) ?? "whether the request took effect";
}

/**
 * The class of an operation sent with client.request or client.raw. These calls have no lookup and resolve to the
 * answer as it is, so initiate (guarded) is unsafe there, and the classes that resolve an earlier success are safe.
 */
const requestClass = (idempotency: IdempotencyClass): IdempotencyClass =>
  idempotency === "guarded" ? "unsafe" : repeatsFreely(idempotency) ? "safe" : idempotency;

// The route table as patterns, made on the first client.request or client.raw call rather than at import.
let routes: readonly {
  operationId: string;
  path: string;
  method: string;
  pattern: RegExp;
  idempotency: IdempotencyClass;
}[];
const routePatterns = () =>
  (routes ??= Object.entries(operationRoutes as Record<string, OperationRoute>).map(([operationId, route]) => ({
    operationId,
    path: route[1],
    method: route[2].toUpperCase(),
    pattern: new RegExp(`^${route[1].replace(/\{[^}]+\}/g, "[^/]+")}$`),
    idempotency: requestClass(route[6]),
  })));

/**
 * The operation and class of a `client.request` or `client.raw` call, from the route table; a path the spec does not
 * know is safe for GET and DELETE and unsafe otherwise. A guarded operation (initiate) is unsafe here: these calls
 * cannot look the order up in the history before a repeat, so they repeat it only when it provably was not processed.
 * A safe-by-reference or safe-delete operation is safe here: its answer to a repeat is returned or thrown as it is.
 */
export function classifyRequest(
  method: string,
  path: string,
): { operationId: string | undefined; path: string; idempotency: IdempotencyClass } {
  const pathname = path.split("?")[0]!;
  const route = routePatterns().find((r) => r.method === method && r.pattern.test(pathname));
  if (route !== undefined) return route;
  return {
    operationId: undefined,
    path: pathname,
    idempotency: method === "GET" || method === "DELETE" ? "safe" : "unsafe",
  };
}
