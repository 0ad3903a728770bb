import { type DedupKey, type DedupKeyStrategy, dedupKeyOf, legacyCutoff, legacyKeyFor } from "./dedup-key.js";
import type { ClaimState, DedupStore } from "./dedup-store.js";
import { memoryStore } from "./memory-store.js";
import { retrying } from "./retrying.js";
import { bounded, LeaseLostError } from "./store-errors.js";

export type { DedupKey, DedupKeyStrategy };

/**
 * A claimed delivery: call `complete` after the work succeeded, `release` if
 * it failed. Until then the claim's lease is renewed in the background.
 */
export interface ClaimedDelivery {
  status: "claimed";
  /**
   * Marks the event done (retried while the store is unreachable); later deliveries are duplicates. Rejects
   * with a LeaseLostError, after writing the mark, when the lease had run out before: the event may have run twice.
   */
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
   * The claim's lease, in seconds, from 0.1 to 3600: renewed every third of
   * it while the handler runs, so a receiver that dies mid-handler frees the
   * event this long after its last renewal, within the sender's retry
   * schedule. A handler that blocks the event loop longer than this cannot
   * renew it: another delivery may claim the event and run it too (reported
   * as a LeaseLostError). Default 5.
   */
  claimTtlSeconds?: number;
  /**
   * Longest wait for one store call, in milliseconds; a store that does
   * not answer in time fails the call with a DedupStoreError (the adapters
   * answer 503). Default 1000.
   */
  storeTimeoutMs?: number;
  /**
   * Which deliveries count as one event. Default `"id+event+timestamp"`: a redelivery (same timestamp) is a
   * duplicate, and a record that moves to the same status again (a new change, a new timestamp) is handled.
   * `"id+event"` is the interface document's plain rule, which drops that second move; or a function.
   */
  dedupKey?: DedupKeyStrategy;
  /**
   * After upgrading from a version that keyed on `id:event`: the moment its last receiver stopped. An event
   * whose change (`timestamp`) is earlier is also a duplicate when that version's `id:event` mark says it was
   * handled (one more store call, for those events only); later changes are never checked against it.
   */
  legacyKeysBefore?: Date;
}

export interface Deduplicator {
  /**
   * Runs `handler` unless the event was handled or is being handled. If it
   * throws, the claim is released (so a redelivery retries) and the error is rethrown.
   * If it succeeded after its lease was lost, rejects with a LeaseLostError (the event is marked done).
   */
  run<T>(event: DedupKey, handler: () => T | Promise<T>): Promise<DedupResult<T>>;
  /** The two halves of `run`, for work that finishes after the HTTP answer. */
  claim(event: DedupKey): Promise<DeliveryClaim>;
}

function milliseconds(value: number, name: string, scale: number): number {
  if (!(value > 0 && value < Infinity)) throw new TypeError(`${name} must be > 0`);
  return Math.ceil(value * scale);
}

// Shorter than 0.1 s renews too often to be kept; longer than an hour leaves a crashed receiver's event
// claimed past any redelivery.
const LEASE_SECONDS = { min: 0.1, max: 3600 };

/** The lease in milliseconds; a TypeError outside LEASE_SECONDS. */
export function leaseMilliseconds(seconds: number, name: string): number {
  if (!(seconds >= LEASE_SECONDS.min && seconds <= LEASE_SECONDS.max)) {
    throw new TypeError(`${name} must be from ${LEASE_SECONDS.min} to ${LEASE_SECONDS.max} seconds, got ${seconds}`);
  }
  return Math.ceil(seconds * 1000);
}

/**
 * At most one effect per event (its id, event and timestamp: one change of
 * one record, however often it is delivered): claims the event in the store
 * (a lease, renewed while the handler runs), runs the handler, marks it done;
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
  const claimTtlMs = leaseMilliseconds(claimTtlSeconds, "claimTtlSeconds");
  const timeoutMs = milliseconds(storeTimeoutMs, "storeTimeoutMs", 1);
  const keyOf = dedupKeyOf(options.dedupKey);
  const cutoff = legacyCutoff(options.legacyKeysBefore);

  async function claimKey(key: string, token: string): Promise<ClaimState> {
    try {
      return await bounded("claim", timeoutMs, () => store.claim(key, token, claimTtlMs));
    } catch (error) {
      // The claim may have been written with its answer lost: free it now if we can, or its lease runs out.
      bounded("release", timeoutMs, () => store.release(key, token)).catch(() => {});
      throw error;
    }
  }

  /** What the earlier version's mark says: claimed only to look, and freed at once when nobody held it. */
  async function legacyState(legacy: string): Promise<ClaimState> {
    const token = crypto.randomUUID();
    const state = await claimKey(legacy, token);
    if (state === "claimed") await bounded("release", timeoutMs, () => store.release(legacy, token));
    return state;
  }

  async function claim(event: DedupKey): Promise<DeliveryClaim> {
    const key = keyOf(event);
    const legacy = legacyKeyFor(event, key, cutoff);
    const seen = legacy === undefined ? "claimed" : await legacyState(legacy);
    const token = crypto.randomUUID();
    const state = seen === "claimed" ? await claimKey(key, token) : seen;
    if (state === "done") return { status: "duplicate" };
    if (state === "processing") return { status: "in-progress" };
    return lease(key, token, { store, ttlMs, claimTtlMs, timeoutMs });
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

interface LeaseSettings {
  store: DedupStore;
  ttlMs: number;
  claimTtlMs: number;
  timeoutMs: number;
}

/** A claimed delivery, its lease renewed every third of it until it is completed or released. */
function lease(key: string, token: string, { store, ttlMs, claimTtlMs, timeoutMs }: LeaseSettings): ClaimedDelivery {
  let held = true;
  // Once completing, a renewal that reaches the store after the done mark finds it done: not a loss.
  let completing = false;
  const renew = async (): Promise<boolean> => {
    if (store.renew === undefined) return held;
    const ours = await bounded("renew", timeoutMs, () => store.renew!(key, token, claimTtlMs));
    if (!completing) held &&= ours;
    return held;
  };
  // Renewal failures are not fatal: the next tick tries again, and complete() writes the mark regardless.
  const timer = store.renew === undefined ? undefined : setInterval(() => void renew().catch(() => {}), claimTtlMs / 3);
  (timer as { unref?: () => void } | undefined)?.unref?.(); // never keeps a Node process alive
  const stop = () => clearInterval(timer);
  return {
    status: "claimed",
    renew,
    async complete() {
      completing = true;
      let ours: unknown; // false: not ours; a store that cannot tell says nothing
      try {
        // A done mark that cannot be written is retried (SETTLE_RETRY: 30 s), longer than the sender's schedule;
        // renewing meanwhile keeps the event ours.
        ours = await retrying(() => bounded("complete", timeoutMs, () => store.complete(key, token, ttlMs)));
      } finally {
        stop();
      }
      if (!held || ours === false) throw new LeaseLostError(key, claimTtlMs);
    },
    async release() {
      stop();
      await bounded("release", timeoutMs, () => store.release(key, token));
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
