import type { InboxEntry, InboxStore, ParkedRecord } from "./inbox-store.js";

/** The in-process inbox store's bound on what it remembers. */
export interface MemoryInboxOptions {
  /** Dedup marks kept at most; beyond it the oldest go first. Default 10,000. */
  maxMarks?: number;
}

interface Queued {
  id: string;
  record: string;
  /** The run number of the entry's first delivery (1, or a retry's). */
  attempt: number;
}

interface Held extends Queued {
  consumer: string;
  deliveries: number;
  renewedAt: number;
}

/**
 * The in-process inbox store, for tests and development: accepted events live in this process's memory and
 * are lost when it exits or crashes, while the service has already had its 200. Receivers on several
 * instances, or any receiver whose events must survive a crash, need `redisInbox`.
 *
 * @example
 * const inbox = createInbox({ store: memoryInbox(), handler: async (event) => console.log(event.id) });
 */
export function memoryInbox(options: MemoryInboxOptions = {}): InboxStore {
  const { maxMarks = 10_000 } = options;
  if (!Number.isInteger(maxMarks) || maxMarks < 1) throw new TypeError("maxMarks must be an integer > 0");
  const marks = new Map<string, number>(); // key -> expires at; a Map iterates oldest first
  const queue: Queued[] = [];
  const retries: (Queued & { dueAt: number })[] = [];
  const held = new Map<string, Held>();
  const parked = new Map<string, ParkedRecord>();
  let ids = 0;

  /** Marks `key` seen until `expiresAt`, unless it is already; drops expired and surplus marks. */
  function mark(key: string, expiresAt: number, now: number): boolean {
    if ((marks.get(key) ?? 0) > now) return false;
    marks.delete(key);
    marks.set(key, expiresAt);
    for (const [oldest, until] of marks) {
      if (marks.size <= maxMarks && until > now) break;
      marks.delete(oldest);
    }
    return true;
  }

  const enqueue = (record: string, attempt: number) => queue.push({ id: String(++ids), record, attempt });

  function hold(entry: Queued, consumer: string, deliveries: number, now: number): InboxEntry {
    held.set(entry.id, { ...entry, consumer, deliveries, renewedAt: now });
    return { id: entry.id, record: entry.record, attempt: entry.attempt + deliveries - 1 };
  }

  /** Due retries back in the queue, then entries left unrenewed for a lease, then new ones. */
  function take(consumer: string, count: number, leaseMs: number, now: number): InboxEntry[] {
    for (let i = retries.length - 1; i >= 0; i--) {
      if (retries[i]!.dueAt <= now) enqueue(retries[i]!.record, retries.splice(i, 1)[0]!.attempt);
    }
    const taken: InboxEntry[] = [];
    for (const entry of held.values()) {
      if (taken.length < count && now - entry.renewedAt >= leaseMs)
        taken.push(hold(entry, consumer, entry.deliveries + 1, now));
    }
    while (taken.length < count && queue.length > 0) taken.push(hold(queue.shift()!, consumer, 1, now));
    return taken;
  }

  /** Removes the entry if `consumer` holds it. */
  function release(consumer: string, id: string): boolean {
    if (held.get(id)?.consumer !== consumer) return false;
    held.delete(id);
    return true;
  }

  return {
    append: async (key, record, ttlMs, now) => mark(key, now + ttlMs, now) && (enqueue(record, 1), true),
    take: async (consumer, count, leaseMs, now) => take(consumer, count, leaseMs, now),
    async renew(consumer, id, now) {
      const entry = held.get(id);
      if (entry?.consumer !== consumer) return false;
      entry.renewedAt = now;
      return true;
    },
    done: async (consumer, id) => release(consumer, id),
    retry: async (consumer, id, record, attempt, dueAt) =>
      release(consumer, id) && (retries.push({ id, record, attempt, dueAt }), true),
    park: async (consumer, id, record) => release(consumer, id) && (parked.set(record.key, record), true),
    parked: async () => [...parked.values()],
    async replay(key) {
      const record = parked.get(key);
      if (record === undefined) return false;
      parked.delete(key);
      enqueue(record.record, 1);
      return true;
    },
  };
}
