// What follows a failed attempt, decided from facts alone (no fetch, no clock, no randomness of its own), so that
// the whole retry policy reads as one function and is tested as a table (test/retry-decision.test.ts).
import { retryDelay, shouldRetry } from "./retry.js";
import { isAmbiguous } from "./retry-safety.js";
import type { IdempotencyClass } from "./spec.js";

/** What the policy needs to know about a failed attempt. */
export interface AttemptFailure {
  /** The document's retry class, a network error or an attempt timeout. */
  readonly retryable: boolean;
  /** The failure proves the request was not processed (see retry-safety.ts). */
  readonly notProcessed: boolean;
  /** An answer arrived but was not read (over maxResponseBytes): never asked for again. */
  readonly unread?: boolean | undefined;
  /** The answer's status and err_code, when there was an answer. */
  readonly status?: number | undefined;
  readonly errCode?: string | undefined;
  /** The answer's Retry-After header. */
  readonly retryAfter?: string | null | undefined;
  /**
   * The answer is what an earlier success of this call causes (earlier-success.ts): "client reference ID already
   * exists" for a create, not-found for a delete.
   */
  readonly echoesEarlierSuccess?: boolean | undefined;
}

/** The call around a failed attempt. */
export interface RetrySituation {
  /** The attempt that failed, from 1. */
  readonly attempt: number;
  readonly idempotency: IdempotencyClass;
  /** A guarded call (initiate with a client_reference_id) can look for the order an attempt may have created. */
  readonly canLookUp: boolean;
  /** The order was looked up after this failure and not found: decide without looking again. */
  readonly lookedUp: boolean;
  /** An earlier attempt of the call failed without proof that it was not processed: it may have taken effect. */
  readonly uncertainBefore: boolean;
  /** Why the call is never repeated (initiate without a client_reference_id). */
  readonly noRetry: string | undefined;
  readonly maxRetries: number;
  readonly retryBaseMs: number;
  /** Time left before the call's deadline, in ms (Infinity without one). */
  readonly timeLeftMs: number;
  /** The current time, to read a Retry-After given as a date. */
  readonly now: number;
  /** The backoff's random share, from 0 (none) to 1 (25 % more). */
  readonly jitter: number;
}

/** What follows a failed attempt. */
export type RetryDecision =
  /** Sleep `delayMs`, then (guarded) look the order up, then send again. */
  | { readonly action: "retry"; readonly delayMs: number; readonly lookUpFirst: boolean }
  /**
   * Look for the order in the history before deciding: found, it is the result; not found, decide again with
   * `lookedUp`. A lookup that fails ends the call with its error, unless `lookupErrorIgnored`.
   */
  | { readonly action: "look-up"; readonly lookupErrorIgnored: boolean }
  /** A delete met not-found after an attempt that may have deleted the record: it did; the call succeeds. */
  | { readonly action: "deleted-earlier" }
  /** The request may have been processed: ExchangeAmbiguousResultError, naming what to check. */
  | { readonly action: "ambiguous" }
  /** End the call on the attempt's own error. */
  | { readonly action: "give-up"; readonly notRetriedReason?: string | undefined; readonly escalate: boolean };

/**
 * The rows that resolve a failure through what an earlier attempt did, or undefined. After an attempt that may have
 * been processed, an answer that echoes its success resolves the call: a safe-delete call is done ("deleted-earlier"),
 * a safe-by-reference call looks the record up by its reference. A guarded call (initiate) whose attempt may have
 * created the order (an answer too large to read, or "this reference already exists" on a repeat) looks it up first.
 */
function resolution(failure: AttemptFailure, situation: RetrySituation): RetryDecision | undefined {
  const { attempt, canLookUp, lookedUp, idempotency } = situation;
  if (failure.echoesEarlierSuccess && situation.uncertainBefore) {
    if (idempotency === "safe-delete") return { action: "deleted-earlier" };
    if (canLookUp && !lookedUp) return { action: "look-up", lookupErrorIgnored: false };
  }
  if (idempotency !== "guarded" || !canLookUp || lookedUp) return undefined;
  // An answer too large to read was an answer: the order may exist. A duplicate reference after an uncertain
  // attempt means that attempt created it.
  if (failure.unread) return { action: "look-up", lookupErrorIgnored: true };
  if (attempt > 1 && failure.errCode?.endsWith("_DUPLICATE_CLIENT_REF_ID"))
    return { action: "look-up", lookupErrorIgnored: false };
  return undefined;
}

/**
 * The decision after a failed attempt. In order: a failure that an earlier attempt's success explains is resolved
 * (a delete that meets not-found, a create that meets its own reference, a guarded call whose order may exist: see
 * `resolution`); a failure that leaves an unsafe call's outcome unknown is ambiguous; a failure outside the retry
 * class, or past maxRetries, gives up (escalating a 5xx that keeps recurring); a call that must not be repeated, a
 * Retry-After past the client's limit or a deadline too close give up with the reason; anything else is retried
 * after the backoff (or the Retry-After), a guarded call looking the order up first.
 *
 * @example
 * decideRetry(
 *   { retryable: true, notProcessed: true, unread: false, status: 503, errCode: undefined, retryAfter: "2" },
 *   { attempt: 1, idempotency: "safe", canLookUp: false, lookedUp: false, uncertainBefore: false, noRetry: undefined,
 *     maxRetries: 3, retryBaseMs: 1000, timeLeftMs: Infinity, now: Date.now(), jitter: 0 },
 * ); // { action: "retry", delayMs: 2000, lookUpFirst: false }
 */
export function decideRetry(failure: AttemptFailure, situation: RetrySituation): RetryDecision {
  const { attempt } = situation;
  const resolved = resolution(failure, situation);
  if (resolved !== undefined) return resolved;
  if (isAmbiguous(situation.idempotency, failure)) return { action: "ambiguous" };
  if (!shouldRetry(failure.retryable, failure.errCode, attempt, situation.maxRetries)) {
    // A 5xx that keeps recurring: the document says stop and escalate.
    return { action: "give-up", escalate: failure.retryable && attempt > 1 && (failure.status ?? 0) >= 500 };
  }
  if (situation.noRetry !== undefined)
    return { action: "give-up", notRetriedReason: situation.noRetry, escalate: false };
  const { now } = situation;
  const delay = retryDelay(
    failure.retryAfter,
    attempt,
    situation.retryBaseMs,
    now + situation.timeLeftMs,
    now,
    () => situation.jitter,
  );
  if (typeof delay === "string") return { action: "give-up", notRetriedReason: delay, escalate: false };
  return { action: "retry", delayMs: delay, lookUpFirst: situation.canLookUp && situation.idempotency === "guarded" };
}
