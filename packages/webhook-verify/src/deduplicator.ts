import type { ClaimState, DedupStore } from "./dedup-store.js";
import { memoryStore } from "./memory-store.js";
import { bounded } from "./store-errors.js";

/** What identifies an event for deduplication: the spec deduplicates on id together with event. */
export interface DedupKey {
  id: string;
  event: string;
}

/**
 * A claimed delivery: call `complete` after the work succeeded, `release` if
 * it failed. Until then the claim's lease is renewed in the background.
 */
export interface ClaimedDelivery {
  status: "claimed";
  /** Marks the event done (retried while the store is unreachable); later deliveries are duplicates. */
  complete(): Promise<void>;
  /** Frees the claim so that the next delivery of the event runs it again. */
  release(): Promise<void>;
  /** Extends the lease now; false when it was lost (expired and taken by another delivery). */
  renew(): Promise<boolean>;
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
  /**
   * How long a handled event is remembered, in seconds: longer than the
   * service redelivers. Default 7 days, as the retry schedule is not published.
   */
  ttlSeconds?: number;
  /**
   * The claim's lease, in seconds: renewed every third of it while the
   * handler runs, so a receiver that dies mid-handler frees the event this
   * long after its last renewal, well within the sender's retry schedule.
   * Default 5.
   */
  claimTtlSeconds?: number;
  /**
   * Longest wait for one store call, in milliseconds; a store that does
   * not answer in time fails the call with a DedupStoreError (the adapters
   * answer 503). Default 1000.
   */
  storeTimeoutMs?: number;
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

function milliseconds(value: number, name: string, scale: number): number {
  if (!(value > 0 && value < Infinity)) throw new TypeError(`${name} must be > 0`);
  return Math.ceil(value * scale);
}

// A done mark that cannot be written is retried for this long (longer than
// the sender's retry schedule), so a short store outage after the handler ran
// does not turn into a second run on the next delivery.
const COMPLETE_RETRY_MS = 30_000;
const COMPLETE_RETRY_FIRST_MS = 100;
const COMPLETE_RETRY_MAX_MS = 2_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * At most one effect per (id, event): claims the event in the store (a
 * lease, renewed while the handler runs), runs the handler, marks it done;
 * a failed handler releases the claim.
 *
 * @example
 * const deduplicator = createDeduplicator({ store: memoryStore() });
 * const outcome = await deduplicator.run(event, () => fulfil(event));
 * if (outcome.status !== "processed") console.log(`skipped: ${outcome.status}`);
 */
export function createDeduplicator(options: DeduplicatorOptions = {}): Deduplicator {
  const { store = memoryStore(), ttlSeconds = 7 * 24 * 3600, claimTtlSeconds = 5, storeTimeoutMs = 1000 } = options;
  const ttlMs = milliseconds(ttlSeconds, "ttlSeconds", 1000);
  const claimTtlMs = milliseconds(claimTtlSeconds, "claimTtlSeconds", 1000);
  const timeoutMs = milliseconds(storeTimeoutMs, "storeTimeoutMs", 1);

  async function claim({ id, event }: DedupKey): Promise<DeliveryClaim> {
    const key = `${id}:${event}`;
    const token = crypto.randomUUID();
    let state: ClaimState;
    try {
      state = await bounded("claim", timeoutMs, () => store.claim(key, token, claimTtlMs));
    } catch (error) {
      // The claim may have been written with its answer lost: free it now if we can, or its lease runs out.
      bounded("release", timeoutMs, () => store.release(key, token)).catch(() => {});
      throw error;
    }
    if (state === "done") return { status: "duplicate" };
    if (state === "processing") return { status: "in-progress" };
    return lease(key, token);
  }

  function lease(key: string, token: string): ClaimedDelivery {
    let held = true;
    const renew = async (): Promise<boolean> => {
      if (store.renew === undefined) return held;
      held = held && (await bounded("renew", timeoutMs, () => store.renew!(key, token, claimTtlMs)));
      return held;
    };
    // Renewal failures are not fatal: the next tick tries again, and complete() writes the mark regardless.
    const timer =
      store.renew === undefined ? undefined : setInterval(() => void renew().catch(() => {}), claimTtlMs / 3);
    (timer as { unref?: () => void } | undefined)?.unref?.(); // never keeps a Node process alive
    const stop = () => clearInterval(timer);
    return {
      status: "claimed",
      renew,
      async complete() {
        try {
          await completeWithRetries(key, token);
        } finally {
          stop();
        }
      },
      async release() {
        stop();
        await bounded("release", timeoutMs, () => store.release(key, token));
      },
    };
  }

  async function completeWithRetries(key: string, token: string): Promise<void> {
    const deadline = Date.now() + COMPLETE_RETRY_MS;
    for (let wait = COMPLETE_RETRY_FIRST_MS; ; wait = Math.min(wait * 2, COMPLETE_RETRY_MAX_MS)) {
      try {
        return await bounded("complete", timeoutMs, () => store.complete(key, token, ttlMs));
      } catch (error) {
        if (Date.now() + wait > deadline) throw error;
        await pause(wait);
      }
    }
  }

  return {
    claim,
    async run(event, handler) {
      const claimed = await claim(event);
      // If the release fails, the claim still expires after claimTtlSeconds.
      return claimed.status === "claimed"
        ? { status: "processed", result: await settle(claimed, handler, () => {}) }
        : claimed;
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
