import type { DedupStore } from "./dedup-store.js";
import { memoryStore } from "./memory-store.js";

/** What identifies an event for deduplication: the spec deduplicates on id together with event. */
export interface DedupKey {
  id: string;
  event: string;
}

/** A claimed delivery: call `complete` after the work succeeded, `release` if it failed. */
export interface ClaimedDelivery {
  status: "claimed";
  /** Marks the event done; later deliveries are duplicates. */
  complete(): Promise<void>;
  /** Frees the claim so that the next delivery of the event runs it again. */
  release(): Promise<void>;
}

/**
 * `duplicate`: already handled. `in-progress`: another delivery of the same
 * event is being handled right now (here or on another instance).
 */
export type DeliveryClaim = ClaimedDelivery | { status: "duplicate" } | { status: "in-progress" };

/** Whether `run` ran the handler (with its result) or skipped it. */
export type DedupResult<T> = { status: "processed"; result: T } | { status: "duplicate" } | { status: "in-progress" };

export interface DeduplicatorOptions {
  /** Where claims live. Default: `memoryStore()`, for a single process. */
  store?: DedupStore;
  /** How long a handled event is remembered, in seconds. Default 7 days: the retry schedule is not published. */
  ttlSeconds?: number;
  /**
   * How long a claim holds while its handler runs, in seconds. A receiver
   * that dies mid-handler frees the event after this long. Default 300.
   */
  claimTtlSeconds?: number;
}

export interface Deduplicator {
  /**
   * Runs `handler` unless the event was handled or is being handled. If it
   * throws, the claim is released (so a redelivery retries) and the error is rethrown.
   */
  run<T>(event: DedupKey, handler: () => T | Promise<T>): Promise<DedupResult<T>>;
  /** The two halves of `run`, for work that finishes after the HTTP answer. */
  claim(event: DedupKey): Promise<DeliveryClaim>;
}

function seconds(value: number, name: string): number {
  if (!(value > 0 && value < Infinity)) throw new TypeError(`${name} must be > 0`);
  return Math.ceil(value * 1000);
}

/**
 * At most one effect per (id, event): claims the event in the store, runs
 * the handler, marks it done; a failed handler releases the claim.
 *
 * @example
 * const deduplicator = createDeduplicator({ store: memoryStore() });
 * const outcome = await deduplicator.run(event, () => fulfil(event));
 * if (outcome.status !== "processed") console.log(`skipped: ${outcome.status}`);
 */
export function createDeduplicator(options: DeduplicatorOptions = {}): Deduplicator {
  const { store = memoryStore(), ttlSeconds = 7 * 24 * 3600, claimTtlSeconds = 300 } = options;
  const ttlMs = seconds(ttlSeconds, "ttlSeconds");
  const claimTtlMs = seconds(claimTtlSeconds, "claimTtlSeconds");

  async function claim({ id, event }: DedupKey): Promise<DeliveryClaim> {
    const key = `${id}:${event}`;
    const token = crypto.randomUUID();
    const state = await store.claim(key, token, claimTtlMs);
    if (state === "done") return { status: "duplicate" };
    if (state === "processing") return { status: "in-progress" };
    return {
      status: "claimed",
      complete: () => store.complete(key, token, ttlMs),
      release: () => store.release(key, token),
    };
  }

  return {
    claim,
    async run(event, handler) {
      const claimed = await claim(event);
      // If the release fails, the claim still expires after claimTtlSeconds.
      return claimed.status === "claimed" ? { status: "processed", result: await settle(claimed, handler, () => {}) } : claimed;
    },
  };
}

/**
 * Runs `handler` under a claim (none when deduplication is off): marks the
 * event done once it succeeds; if it throws, releases the claim so that the
 * next delivery runs it again, and rethrows. A failed release goes to
 * `releaseFailed`; a failed completion rejects.
 */
export async function settle<T>(
  claim: ClaimedDelivery | undefined,
  handler: () => T | Promise<T>,
  releaseFailed: (failure: unknown) => void,
): Promise<T> {
  let result: T;
  try {
    result = await handler();
  } catch (error) {
    await claim?.release().catch(releaseFailed);
    throw error;
  }
  await claim?.complete();
  return result;
}
