// The shapes of a call's trace, shared by tracing.ts (which loads the span code lazily and hands out the no-op
// trace) and tracing-spans.ts (which records real spans): kept apart so that neither imports the other's module.
import type { ExchangeError, OperationRef } from "./errors.js";
import type { IdempotencyClass } from "./spec.js";

export type OtelApi = typeof import("@opentelemetry/api");

/** The trace of one attempt: its span, what the attempt sends under it, and how it ended. */
export interface AttemptTrace {
  /** Runs the attempt with its span as the active one (so an instrumented fetch nests under it). */
  run<T>(send: () => Promise<T>): Promise<T>;
  /** Adds `traceparent` (and `tracestate`) for this attempt to the request's headers, if propagation is on. */
  inject(headers: Record<string, string>): void;
  /**
   * The answer's status and err_code; for a failed attempt, its error (built only when the span records), whose
   * type names the failure when there was no answer (a timeout, a network error).
   */
  answered(status: number | undefined, errCode: string | undefined, failure?: () => ExchangeError): void;
  /** The wait before the next attempt, decided after this one failed. */
  retryAfter(ms: number): void;
  end(thrown?: unknown): void;
}

/** The trace of one call: its span and the attempts under it. */
export interface CallTrace {
  attempt(attemptNo: number): AttemptTrace;
  /** Runs `work` (the history lookup's own calls) with the call's span active, so their spans nest under it. */
  within<T>(work: () => Promise<T>): Promise<T>;
  /**
   * The lookup by client_reference_id of what an earlier attempt may have made (initiate's history, the customer
   * list for createCustomer): found it, or not.
   */
  lookedUp(found: boolean): void;
  /** The call ended on how an earlier attempt's success explains its last answer (a delete that met not-found). */
  resolved(outcome: "deleted_by_earlier_attempt"): void;
  end(thrown?: unknown): void;
}

/** What a call's trace is made from: the operation and where it is sent. */
export interface TracedCall {
  readonly operation: OperationRef;
  readonly idempotency: IdempotencyClass;
  readonly url: string;
}
