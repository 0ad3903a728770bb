/** What a claim found: it is now ours, another delivery holds it, or the event was already handled. */
export type ClaimState = "claimed" | "processing" | "done";

/**
 * Where deduplication state lives. Implement it to use another database;
 * `claim` must be atomic across every receiver that shares the store.
 * A claim is a lease: it holds for `ttlMs` unless renewed, so a receiver
 * that dies mid-handler frees the event quickly.
 */
export interface DedupStore {
  /** Marks `key` as being processed under `token` for `ttlMs`, unless it is already processing or done. */
  claim(key: string, token: string, ttlMs: number): Promise<ClaimState>;
  /**
   * Extends the lease of `key` to `ttlMs` from now if `token` still holds it; false when it does not
   * (it expired, or another delivery holds it now). Optional: without it a claim is never renewed.
   */
  renew?(key: string, token: string, ttlMs: number): Promise<boolean>;
  /**
   * Marks `key` as done for `ttlMs`: later deliveries are duplicates. Resolves to false when `token` no longer
   * held the claim (its lease ran out, or another delivery holds it): the event may have run twice. A store
   * that cannot tell resolves to nothing.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: stores written before the boolean resolve to void, and must still fit.
  complete(key: string, token: string, ttlMs: number): Promise<boolean | void>;
  /** Frees `key` if `token` still holds it, so that the next delivery runs again. */
  release(key: string, token: string): Promise<void>;
}
