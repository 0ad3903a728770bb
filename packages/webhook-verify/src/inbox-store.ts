/** An accepted event taken for handling: which store entry, its record, and which run this is. */
export interface InboxEntry {
  /** The store's id of the entry (in Redis, the stream entry's id). */
  id: string;
  /** The event's record, JSON the inbox wrote; the store keeps it as it is. */
  record: string;
  /** Which run this is: 1 for the first; a run cut short by a crash counts. */
  attempt: number;
}

/** A parked event as the store keeps it: the dedup key, the record, and the inbox's note of why (JSON). */
export interface ParkedRecord {
  /** The event's dedup key (`id:event:timestamp` by default). */
  key: string;
  /** The event's record, as the inbox wrote it. */
  record: string;
  /** Why it was parked: JSON the inbox wrote (runs, last error, when). */
  note: string;
}

/**
 * Where an inbox keeps accepted events until they are handled: `memoryInbox()` (one process, lost on a
 * crash) or `redisInbox(client)` (Redis Streams, survives a receiver's crash). Implement it for another
 * database; every method acts atomically across the receivers that share the store. `consumer` names the
 * receiver process that holds an entry; `now` is the inbox's clock in milliseconds.
 */
export interface InboxStore {
  /**
   * Appends the record unless `key` was appended within `ttlMs` (a redelivery): true when appended. Must
   * be durable when it resolves: the delivery is answered 200 after it. `legacyKey`, when given, is the
   * `id:event` key an earlier version appended the event under: a redelivery too if it was appended within
   * its TTL (a store written before `legacyKey` existed ignores it, and such events run once more).
   */
  append(key: string, record: string, ttlMs: number, now: number, legacyKey?: string): Promise<boolean>;
  /**
   * Up to `count` entries for `consumer` to handle: retries that are due, entries whose holder has not
   * renewed them for `leaseMs` (it died or blocked), then new ones. Each is held by `consumer` until done.
   */
  take(consumer: string, count: number, leaseMs: number, now: number): Promise<InboxEntry[]>;
  /** Restarts the lease of an entry `consumer` holds; false when it no longer holds it (taken over). */
  renew(consumer: string, id: string, now: number): Promise<boolean>;
  /** Removes a handled entry; false when `consumer` no longer held it (it may have run twice). */
  done(consumer: string, id: string): Promise<boolean>;
  /** Replaces the entry by its record as run number `attempt`, taken again from `dueAt`; false when not held. */
  retry(consumer: string, id: string, record: string, attempt: number, dueAt: number): Promise<boolean>;
  /** Moves the entry to the parked events under `key` with `note`; false when not held. */
  park(consumer: string, id: string, parked: ParkedRecord): Promise<boolean>;
  /** Every parked event. */
  parked(): Promise<ParkedRecord[]>;
  /** Appends the parked event `key` again as a first run and unparks it; false when none is parked under `key`. */
  replay(key: string): Promise<boolean>;
  /** Forgets `consumer` when it holds nothing (called by `stop()`), so stopped receivers do not pile up. Optional. */
  leave?(consumer: string): Promise<void>;
}
