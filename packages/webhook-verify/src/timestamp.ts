import { fail } from "./errors.js";

const UNIX_SECONDS = /^\d{1,15}$/;

/**
 * Rejects a timestamp more than `toleranceSeconds` away from `now`, either
 * way, and says which way and by how much: old deliveries are replays or
 * delayed, future ones mean this server's clock is behind.
 */
export function checkTimestamp(header: string, toleranceSeconds: number, now: number): void {
  if (!UNIX_SECONDS.test(header)) {
    fail("INVALID_TIMESTAMP", `X-TIMESTAMP must be Unix seconds, got "${header.slice(0, 32)}"`);
  }
  const age = Math.floor(now) - Number(header);
  if (Math.abs(age) > toleranceSeconds) {
    const why = age > 0 ? "a delayed or replayed delivery, or this clock is ahead" : "this clock is behind";
    fail(
      "TIMESTAMP_OUT_OF_TOLERANCE",
      `X-TIMESTAMP is ${Math.abs(age)} s in the ${age > 0 ? "past" : "future"} (tolerance ${toleranceSeconds} s): ` +
        `${why}${header.length > 12 ? "; it looks like milliseconds" : ""}`,
    );
  }
}
