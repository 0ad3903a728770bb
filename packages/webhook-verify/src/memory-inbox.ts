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

/** What a memory inbox holds. */
interface State {
  maxMarks: number;
  /** Dedup key -> expires at; a Map iterates oldest first. */
  marks: Map<string, number>;
  queue: Queued[];
  retries: (Queued & { dueAt: number })[];
  held: Map<string, Held>;
  parked: Map<string, ParkedRecord>;
  ids: number;
}

/**
 * Marks `key` seen until `expiresAt`, unless it or `legacyKey` (an earlier version's key, only checked) is
 * already; drops expired and surplus marks.
 */
function mark({ marks, maxMarks }: State, key: string, expiresAt: number, now: number, legacyKey?: string): boolean {
  if ((marks.get(key) ?? 0) > now) return false;
  if (legacyKey !== undefined && (marks.get(legacyKey) ?? 0) > now) return false;
  marks.delete(key);
  marks.set(key, expiresAt);
  for (const [oldest, until] of marks) {
    if (marks.size <= maxMarks && until > now) break;
    marks.delete(oldest);
  }
  return true;
}

function enqueue(state: State, record: string, attempt: number): true {
  state.queue.push({ id: String(++state.ids), record, attempt });
  return true;
}

function hold(state: State, entry: Queued, consumer: string, deliveries: number, now: number): InboxEntry {
  state.held.set(entry.id, { ...entry, consumer, deliveries, renewedAt: now });
  return { id: entry.id, record: entry.record, attempt: entry.attempt + deliveries - 1 };
}

/** Due retries back in the queue, then entries left unrenewed for a lease, then new ones. */
function take(state: State, consumer: string, count: number, leaseMs: number, now: number): InboxEntry[] {
  const { retries, held, queue } = state;
  for (let i = retries.length - 1; i >= 0; i--) {
    if (retries[i]!.dueAt <= now) enqueue(state, retries[i]!.record, retries.splice(i, 1)[0]!.attempt);
  }
  const taken: InboxEntry[] = [];
  for (const entry of held.values()) {
    if (taken.length < count && now - entry.renewedAt >= leaseMs)
      taken.push(hold(state, entry, consumer, entry.deliveries + 1, now));
  }
  while (taken.length < count && queue.length > 0) taken.push(hold(state, queue.shift()!, consumer, 1, now));
  return taken;
}

/** Removes the entry if `consumer` holds it. */
function release({ held }: State, consumer: string, id: string): boolean {
  if (held.get(id)?.consumer !== consumer) return false;
  held.delete(id);
  return true;
}

function replay(state: State, key: string): boolean {
  const parked = state.parked.get(key);
  if (parked === undefined) return false;
  state.parked.delete(key);
  return enqueue(state, parked.record, 1);
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
  const state: State = {
    maxMarks,
    marks: new Map(),
    queue: [],
    retries: [],
    held: new Map(),
    parked: new Map(),
    ids: 0,
  };
  return {
    append: async (key, record, ttlMs, now, legacyKey) =>
      mark(state, key, now + ttlMs, now, legacyKey) && enqueue(state, record, 1),
    take: async (consumer, count, leaseMs, now) => take(state, consumer, count, leaseMs, now),
    async renew(consumer, id, now) {
      const entry = state.held.get(id);
      if (entry?.consumer !== consumer) return false;
      entry.renewedAt = now;
      return true;
    },
    done: async (consumer, id) => release(state, consumer, id),
    retry: async (consumer, id, record, attempt, dueAt) =>
      release(state, consumer, id) && (state.retries.push({ id, record, attempt, dueAt }), true),
    park: async (consumer, id, parked) => release(state, consumer, id) && (state.parked.set(parked.key, parked), true),
    parked: async () => [...state.parked.values()],
    replay: async (key) => replay(state, key),
  };
}
