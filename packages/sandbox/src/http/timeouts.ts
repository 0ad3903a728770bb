// How long a client may hold a connection without doing its part: Node's own three timeouts, with Node's
// defaults (keep-alive 5 s, headers 60 s, whole request 300 s). Node checks the headers timeout from the moment
// a connection opens, so it also closes a connection that never sends a byte; the request timeout bounds a body
// that trickles in. What Node cannot do for the sandbox is close a connection the sandbox answered itself: see
// client-error.ts.
import type { ServerOptions } from "node:http";

export interface ServerTimeouts {
  /** Idle time after a response before a keep-alive connection is closed. */
  keepAliveMs: number;
  /** Time to receive a request's complete headers (from the connection's start when it sends nothing). */
  headersMs: number;
  /** Time to receive a whole request, body included. */
  requestMs: number;
}

/** Node's http.createServer defaults. */
export const DEFAULT_TIMEOUTS: ServerTimeouts = { keepAliveMs: 5_000, headersMs: 60_000, requestMs: 300_000 };

/** The longest a Node timer keeps (2^31 - 1 ms); longer values fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** Every timeout a whole number of ms from 1 to 2^31 - 1 (0 would mean "never" to Node), headers ≤ request. */
export function checkTimeouts(timeouts: ServerTimeouts): ServerTimeouts {
  for (const [name, value] of Object.entries(timeouts)) {
    if (!Number.isInteger(value) || value < 1 || value > MAX_TIMER_MS)
      throw new RangeError(`the ${name} timeout must be a whole number of ms from 1 to ${MAX_TIMER_MS}; got ${value}`);
  }
  if (timeouts.headersMs > timeouts.requestMs)
    throw new RangeError("the headers timeout cannot be longer than the request timeout");
  return timeouts;
}

/**
 * Node checks the headers and request timeouts of open requests every `connectionsCheckingInterval` ms (30 s by
 * default, half the default headers timeout): half the shorter timeout keeps a timed-out request open at most
 * half as long again, for short test values too.
 */
export function checkingIntervalMs(timeouts: ServerTimeouts): number {
  return Math.max(1, Math.min(30_000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 2)));
}

/** The http.createServer options for these timeouts. */
export function serverTimeoutOptions(timeouts: ServerTimeouts): ServerOptions {
  return {
    keepAliveTimeout: timeouts.keepAliveMs,
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    connectionsCheckingInterval: checkingIntervalMs(timeouts),
  };
}
