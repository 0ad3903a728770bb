import type { ClaimState, DedupStore } from "./dedup-store.js";

export interface MemoryStoreOptions {
  /** Entries kept at most; beyond it the least recently seen go first. Default 10,000. */
  maxEntries?: number;
  /** The clock in milliseconds; defaults to Date.now. For tests. */
  now?: () => number;
}

interface Entry {
  done: boolean;
  token: string;
  expiresAt: number;
}

/**
 * The in-process dedup store: bounded, least recently seen evicted first,
 * entries expire. Right for one process; receivers on several instances
 * need a shared store such as `redisStore`.
 *
 * @example
 * const deduplicator = createDeduplicator({ store: memoryStore({ maxEntries: 50_000 }) });
 */
export function memoryStore(options: MemoryStoreOptions = {}): DedupStore {
  const { maxEntries = 10_000, now = Date.now } = options;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new TypeError("maxEntries must be an integer > 0");
  // A Map iterates in insertion order, so re-inserting on use keeps the least recently seen first.
  const entries = new Map<string, Entry>();

  /** Inserts `key` as the most recently seen, then drops expired entries and those beyond maxEntries from the oldest end. */
  function put(key: string, entry: Entry, time: number): void {
    entries.delete(key);
    entries.set(key, entry);
    for (const [oldest, { expiresAt }] of entries) {
      if (entries.size <= maxEntries && expiresAt > time) break;
      entries.delete(oldest);
    }
  }

  return {
    async claim(key, token, ttlMs): Promise<ClaimState> {
      const time = now();
      const entry = entries.get(key);
      const live = entry !== undefined && entry.expiresAt > time;
      put(key, live ? entry : { done: false, token, expiresAt: time + ttlMs }, time);
      return live ? (entry.done ? "done" : "processing") : "claimed";
    },
    async renew(key, token, ttlMs) {
      const time = now();
      const entry = entries.get(key);
      if (entry === undefined || entry.done || entry.token !== token || entry.expiresAt <= time) return false;
      put(key, { done: false, token, expiresAt: time + ttlMs }, time);
      return true;
    },
    async complete(key, token, ttlMs) {
      const time = now();
      const entry = entries.get(key);
      const ours = entry !== undefined && !entry.done && entry.token === token && entry.expiresAt > time;
      put(key, { done: true, token, expiresAt: time + ttlMs }, time);
      return ours;
    },
    async release(key, token) {
      const entry = entries.get(key);
      if (entry?.token === token && !entry.done) entries.delete(key);
    },
  };
}
