import { ExchangeTimeoutError, ExchangeWaitTimeoutError } from "./errors.js";
import { sleep } from "./retry.js";

/** Options of the waitFor helpers. */
export interface WaitOptions<T = unknown> {
  /** Give up after this long, in ms, with ExchangeWaitTimeoutError carrying the last record. Default 10 minutes. */
  timeoutMs?: number | undefined;
  /** Stops waiting at once (ExchangeAbortError). */
  signal?: AbortSignal | undefined;
  /** The first pause between polls, in ms; it doubles after each poll. Default 1000. */
  intervalMs?: number | undefined;
  /** The longest pause between polls, in ms. Default 30000. */
  maxIntervalMs?: number | undefined;
  /** When to stop, instead of the default final statuses. */
  until?: (record: T) => boolean | undefined;
}

const DEFAULT_WAIT_MS = 10 * 60_000;

/**
 * Calls `get` until `done(record)`, pausing with backoff between calls, and
 * returns the record. Each `get` is bounded by the wait's own deadline.
 */
export async function pollUntil<T>(
  what: string,
  get: (deadlineAt: number) => Promise<T>,
  done: (record: T) => boolean,
  options: WaitOptions<T> = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
  const maxIntervalMs = options.maxIntervalMs ?? 30_000;
  const until = options.until ?? done;
  const deadlineAt = Date.now() + timeoutMs;
  let interval = options.intervalMs ?? 1000;
  let last: T | undefined;
  for (;;) {
    try {
      last = await get(deadlineAt);
    } catch (error) {
      if (error instanceof ExchangeTimeoutError && error.scope === "deadline") {
        throw new ExchangeWaitTimeoutError(what, timeoutMs, last);
      }
      throw error;
    }
    if (until(last)) return last;
    const remaining = deadlineAt - Date.now();
    if (remaining <= 0) throw new ExchangeWaitTimeoutError(what, timeoutMs, last);
    await sleep(Math.min(interval, remaining), options.signal);
    if (Date.now() >= deadlineAt) throw new ExchangeWaitTimeoutError(what, timeoutMs, last);
    interval = Math.min(interval * 2, maxIntervalMs);
  }
}

/** A predicate: the record's `field` is one of `statuses`. */
export function statusIn<T>(field: string, statuses: readonly string[]): (record: T) => boolean {
  return (record) => statuses.includes((record as Record<string, unknown> | null)?.[field] as string);
}
