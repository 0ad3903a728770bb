import { ExchangeAbortError, type OperationRef } from "./errors.js";

/** Longest Retry-After the client will wait for; a longer one ends the call so the caller can reschedule. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * The wait before retry number `retry` (0 for the first retry): `baseMs`
 * doubled each time, as the document recommends (1 s, 2 s, 4 s, ...), plus up
 * to 25 % random jitter so that many clients failing together do not retry
 * in lockstep. Never shorter than the documented wait.
 */
export function backoffDelay(retry: number, baseMs: number, random: () => number = Math.random): number {
  const delay = baseMs * 2 ** retry;
  return delay + delay * 0.25 * random();
}

/**
 * Retry-After in milliseconds: delta-seconds (`"3"`) or an HTTP date
 * (`"Wed, 21 Oct 2026 07:28:00 GMT"`); undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Resolves after `ms`, or rejects with ExchangeAbortError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal, operation?: OperationRef): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ExchangeAbortError(signal.reason, operation));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new ExchangeAbortError(signal?.reason, operation));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
