import { fail } from "./errors.js";

// X-TIMESTAMP is signed as text: "1700000000" and "01700000000" name one instant but sign differently, and
// the signing library refuses anything but canonical whole seconds. So only one spelling per instant is read.

/** A canonical decimal integer: "0", or 1 to 15 ASCII digits without a leading zero (well within 2^53). */
const CANONICAL_SECONDS = /^(?:0|[1-9][0-9]{0,14})$/;

/** More digits than this is after the year 5138: no clock gives it, and the signing library refuses it. */
export const MAX_TIMESTAMP_DIGITS = 11;

/**
 * The Unix seconds an X-TIMESTAMP value names, or undefined unless it is a canonical decimal integer:
 * ASCII digits only, no leading zero, sign, space, fraction or exponent, at most 15 digits (a
 * millisecond value still parses, so that the tolerance check can say it looks like milliseconds).
 *
 * @example
 * parseUnixSeconds("1700000000"); // 1700000000
 * parseUnixSeconds("01700000000"); // undefined
 */
export function parseUnixSeconds(text: string): number | undefined {
  return CANONICAL_SECONDS.test(text) ? Number(text) : undefined;
}

/**
 * Throws INVALID_TIMESTAMP unless `timestamp` is canonical Unix seconds, and TIMESTAMP_OUT_OF_TOLERANCE
 * unless it is within `toleranceSeconds` of `now`, saying which way and by how much.
 */
export function checkTimestamp(timestamp: string, now: number, toleranceSeconds: number): void {
  const seconds = parseUnixSeconds(timestamp);
  if (seconds === undefined) {
    fail(
      "INVALID_TIMESTAMP",
      `X-TIMESTAMP must be Unix seconds, got "${timestamp.slice(0, 32)}": ` +
        "a decimal integer of ASCII digits without a leading zero, sign, space, fraction or exponent",
    );
  }
  // Old deliveries are delayed or replayed, future ones mean this clock is behind. Past 11 digits is out of
  // any tolerance, however large.
  const age = Math.floor(now) - seconds;
  if (Math.abs(age) <= toleranceSeconds && timestamp.length <= MAX_TIMESTAMP_DIGITS) return;
  const why = age > 0 ? "a delayed or replayed delivery, or this clock is ahead" : "this clock is behind";
  fail(
    "TIMESTAMP_OUT_OF_TOLERANCE",
    `X-TIMESTAMP is ${Math.abs(age)} s in the ${age > 0 ? "past" : "future"} (tolerance ${toleranceSeconds} s): ` +
      `${why}${timestamp.length > 12 ? "; it looks like milliseconds" : ""}`,
  );
}
