/**
 * The dedup store failed or did not answer within the store timeout. The
 * adapters answer 503 with Retry-After: the delivery is not acknowledged, so
 * the service delivers it again, and nothing was handled.
 *
 * @example
 * try {
 *   await deduplicator.claim(event);
 * } catch (error) {
 *   if (error instanceof DedupStoreError) return new Response(null, { status: 503, headers: { "retry-after": "1" } });
 *   throw error;
 * }
 */
export class DedupStoreError extends Error {
  override readonly name = "DedupStoreError";
  /** Which store call failed. */
  readonly operation: "claim" | "renew" | "complete" | "release" | "check";
  /** True when the store did not answer in time (as opposed to answering with an error). */
  readonly timedOut: boolean;

  constructor(
    operation: DedupStoreError["operation"],
    message: string,
    options: { timedOut?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.operation = operation;
    this.timedOut = options.timedOut ?? false;
  }
}

/** Builds the error of a store call that failed (`cause`) or did not answer in time. */
type StoreFailure = (message: string, options: { timedOut?: boolean; cause?: unknown }) => Error;

/**
 * `call` bounded by `ms`: a store that hangs (a Redis client queueing
 * commands while it reconnects) fails in `ms` instead of holding the
 * delivery past the sender's own timeout. Any failure becomes `failure(...)`;
 * an error that is already of that kind passes through.
 */
export function boundedCall<T>(
  what: string,
  ms: number,
  call: () => Promise<T>,
  failure: StoreFailure,
  kind: abstract new (...args: never[]) => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(failure(`${what} did not answer within ${ms} ms`, { timedOut: true })), ms);
    let pending: Promise<T>;
    try {
      pending = call();
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(
          error instanceof kind
            ? error
            : failure(`${what} failed: ${(error as Error)?.message ?? error}`, { cause: error }),
        );
      },
    );
  });
}

/** A dedup store call bounded by `ms`; any failure becomes a DedupStoreError. */
export function bounded<T>(operation: DedupStoreError["operation"], ms: number, call: () => Promise<T>): Promise<T> {
  return boundedCall(
    `dedup store ${operation}`,
    ms,
    call,
    (message, options) => new DedupStoreError(operation, message, options),
    DedupStoreError,
  );
}

/**
 * The inbox's store failed or did not answer within the store timeout. When
 * accepting a delivery, the adapters answer 503 with Retry-After: nothing was
 * recorded, so the service delivers it again.
 *
 * @example
 * onError: (error) => {
 *   if (error instanceof InboxStoreError && error.operation === "append") alert("deliveries refused: inbox down");
 * }
 */
export class InboxStoreError extends Error {
  override readonly name = "InboxStoreError";
  /** Which store call failed. */
  readonly operation: "append" | "take" | "renew" | "done" | "retry" | "park" | "parked" | "replay" | "leave" | "check";
  /** True when the store did not answer in time (as opposed to answering with an error). */
  readonly timedOut: boolean;

  constructor(
    operation: InboxStoreError["operation"],
    message: string,
    options: { timedOut?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.operation = operation;
    this.timedOut = options.timedOut ?? false;
  }
}

/** An inbox store call bounded by `ms`; any failure becomes an InboxStoreError. */
export function inboxBounded<T>(
  operation: InboxStoreError["operation"],
  ms: number,
  call: () => Promise<T>,
): Promise<T> {
  return boundedCall(
    `inbox store ${operation}`,
    ms,
    call,
    (message, options) => new InboxStoreError(operation, message, options),
    InboxStoreError,
  );
}

/**
 * A handler ended after its claim's lease had run out without renewal (the handler blocked the event loop,
 * or the store was unreachable for longer than the lease), so another delivery may have claimed the event and
 * run it as well. The event is marked done all the same; this says it may have run twice. The adapters report
 * it through `onError`.
 *
 * @example
 * onError: (error) => {
 *   if (error instanceof LeaseLostError) metrics.increment("webhook.lease_lost"); // a handler blocked too long
 * }
 */
export class LeaseLostError extends Error {
  override readonly name = "LeaseLostError";
  /** The event's dedup key (`id:event:timestamp` by default). */
  readonly key: string;
  /** The lease that ran out, in milliseconds. */
  readonly leaseMs: number;

  constructor(key: string, leaseMs: number) {
    super(
      `the claim on ${key} was lost before its handler ended: its lease (${leaseMs / 1000} s) ran out without ` +
        "renewal (a handler that blocks the event loop, or a store unreachable for longer than the lease), and " +
        "another delivery or receiver may have taken the event over, so the event may have run twice. Handlers " +
        "must be idempotent and must not block the event loop; raise the lease for long outages",
    );
    this.key = key;
    this.leaseMs = leaseMs;
  }
}
