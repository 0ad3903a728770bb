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

/**
 * `call` bounded by `ms`: a store that hangs (a Redis client queueing
 * commands while it reconnects) fails in `ms` instead of holding the
 * delivery past the sender's own timeout. Any failure becomes a DedupStoreError.
 */
export function bounded<T>(operation: DedupStoreError["operation"], ms: number, call: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new DedupStoreError(operation, `dedup store ${operation} did not answer within ${ms} ms`, { timedOut: true }),
        ),
      ms,
    );
    const settled = (): void => clearTimeout(timer);
    let pending: Promise<T>;
    try {
      pending = call();
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => {
        settled();
        resolve(value);
      },
      (error: unknown) => {
        settled();
        reject(
          error instanceof DedupStoreError
            ? error
            : new DedupStoreError(operation, `dedup store ${operation} failed: ${(error as Error)?.message ?? error}`, {
                cause: error,
              }),
        );
      },
    );
  });
}
