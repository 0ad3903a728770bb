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

// HTTP-date (RFC 9110 5.6.7) in its preferred form, IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT". The obsolete
// forms are not accepted: Date.parse reads almost anything ("1, 2" is a date to it), and a misread value must
// fall back to the backoff, never shorten it.
const IMF_FIXDATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * Retry-After in milliseconds: delta-seconds (`"3"`) or an IMF-fixdate in the future
 * (`"Wed, 21 Oct 2026 07:28:00 GMT"`). Undefined when absent, negative, in the past or unreadable (`"1, 2"`),
 * so that the caller falls back to its backoff. Delta-seconds of any length are read (RFC 9110 sets no
 * maximum), so one rule, MAX_RETRY_AFTER_MS, decides every long wait: `"1000000000"` is as long as it says,
 * never mistaken for an unreadable value and retried at once.
 *
 * @example
 * parseRetryAfter("3"); // 3000
 * parseRetryAfter("-1"); // undefined
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!IMF_FIXDATE.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) || at <= now ? undefined : at - now;
}

/**
 * The wait before the next attempt after attempt `attemptNo` failed, or the reason not to make one. A usable
 * Retry-After is honoured but never shorter than the first backoff step (`baseMs`), so `0` cannot cause a storm;
 * one past MAX_RETRY_AFTER_MS or past the deadline ends the call instead. Without one: exponential backoff.
 *
 * @example
 * retryDelay("0", 1, 1000, Infinity); // 1000: the floor
 * retryDelay("3600", 1, 1000, Infinity); // "Retry-After asks for 3600 s, more than the client waits"
 */
export function retryDelay(
  retryAfterHeader: string | null | undefined,
  attemptNo: number,
  baseMs: number,
  deadlineAt: number,
  now: number = Date.now(),
  random: () => number = Math.random,
): number | string {
  const retryAfter = parseRetryAfter(retryAfterHeader, now);
  if (retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_MS) {
    const seconds = Number.isFinite(retryAfter) ? Math.round(retryAfter / 1000) : "more than 1e308";
    return `Retry-After asks for ${seconds} s, more than the client waits`;
  }
  const delay = retryAfter === undefined ? backoffDelay(attemptNo - 1, baseMs, random) : Math.max(retryAfter, baseMs);
  return now + delay >= deadlineAt ? "the deadline leaves no time for another attempt" : delay;
}

/**
 * Whether a failed attempt is followed by another: only a retryable failure (the document's retry class, network
 * errors, attempt timeouts), at most `maxRetries` times, and UNKNOWN_ERROR once ("retry once" in the document).
 *
 * @example
 * shouldRetry(true, "UNKNOWN_ERROR", 2, 3); // false
 */
export function shouldRetry(
  retryable: boolean,
  errCode: string | undefined,
  attemptNo: number,
  maxRetries: number,
): boolean {
  return retryable && attemptNo <= (errCode === "UNKNOWN_ERROR" ? Math.min(1, maxRetries) : maxRetries);
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
