// Following survives the sandbox going away for a while (a deploy, a restart, a replica behind a balancer being
// replaced): a read that did not reach it is tried again with a growing wait instead of ending the command, and
// the follower goes on from its cursor, so nothing is printed twice or skipped.
import { ExchangeError, ExchangeNetworkError, ExchangeTimeoutError } from "@exchange-kit/client";
import { unreachableReason } from "../../unreachable.js";
import { pause } from "./pause.js";

/** What a balancer answers when no replica behind it answers: the sandbox is away, not refusing. */
const BALANCER_AWAY = new Set([502, 503, 504]);

/**
 * Whether a failed read means the sandbox is away (so following waits and reads again): no connection, no answer
 * in time, or a balancer's 502/503/504. Anything else (a refused key, a bad filter) ends the command.
 *
 * @example
 * isSandboxAway(new ExchangeNetworkError(...)); // true
 * isSandboxAway(apiError401); // false
 */
export function isSandboxAway(error: unknown): boolean {
  if (error instanceof ExchangeNetworkError || error instanceof ExchangeTimeoutError) return true;
  const status = error instanceof ExchangeError ? (error as { status?: unknown }).status : undefined;
  return typeof status === "number" && BALANCER_AWAY.has(status);
}

/** The longest wait between two tries while the sandbox is away. */
export const MAX_RECONNECT_DELAY_MS = 5000;

/**
 * The wait before try `attempt` (1, 2, ...) while the sandbox is away: the follow interval, doubled at each try,
 * at most `maxMs`.
 *
 * @example
 * reconnectDelay(1, 500); // 500
 * reconnectDelay(3, 500); // 2000
 * reconnectDelay(9, 500); // 5000
 */
export function reconnectDelay(attempt: number, intervalMs: number, maxMs = MAX_RECONNECT_DELAY_MS): number {
  return Math.min(maxMs, intervalMs * 2 ** Math.min(attempt - 1, 30));
}

export interface Reconnecting {
  intervalMs: number;
  signal: AbortSignal;
  /** Told once when the sandbox goes away, with the error of the read that found it away. */
  away(error: ExchangeError): void;
  /** Told once when it answers again. */
  back(): void;
}

/**
 * Reads with `read` until it answers; while the sandbox is away, says so once and tries again after
 * reconnectDelay. Any other error is thrown; undefined when `signal` aborts first.
 *
 * @example
 * const page = await readUntilBack(() => readRequests(client, query, signal), reconnecting);
 */
export async function readUntilBack<T>(read: () => Promise<T>, reconnecting: Reconnecting): Promise<T | undefined> {
  const { signal } = reconnecting;
  for (let attempt = 1; !signal.aborted; attempt++) {
    try {
      const answer = await read();
      if (attempt > 1) reconnecting.back();
      return answer;
    } catch (error) {
      if (signal.aborted || !isSandboxAway(error)) throw error;
      if (attempt === 1) reconnecting.away(error as ExchangeError);
      await pause(reconnectDelay(attempt, reconnecting.intervalMs), signal);
    }
  }
  return undefined;
}

/** Why the sandbox is away, in a few words: the socket's error or the time limit, else the balancer's status. */
export function awayReason(error: ExchangeError): string {
  if (error instanceof ExchangeNetworkError || error instanceof ExchangeTimeoutError) return unreachableReason(error);
  const status = (error as { status?: unknown }).status;
  return typeof status === "number" ? `HTTP ${status}` : error.message;
}
