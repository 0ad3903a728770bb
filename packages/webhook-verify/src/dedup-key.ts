// Which deliveries are the same event. The interface document says to deduplicate on id together with event,
// but a record can move to the same status twice (a customer VERIFIED, FAILED, then VERIFIED again after a KYC
// update), and keyed on id + event the second VERIFIED would be answered as a duplicate and never handled. The
// envelope's `timestamp` is the time of the change: a redelivery repeats it, a new change has its own. So the
// default key adds it, as its text: two spellings of one instant do not occur in a redelivery (the body is the
// one the service signed), and parsing it would merge changes less than a millisecond apart.

/** What a dedup key is made of: the event's id, its event (the status) and its timestamp (the time of the change). */
export interface DedupKey {
  /** The ID of the record that changed. */
  id: string;
  /** The status it moved to. */
  event: string;
  /** ISO 8601 time of the change, as sent: a redelivery repeats it, a new change of the same status does not. */
  timestamp: string;
}

/**
 * Which deliveries count as one event. `"id+event+timestamp"` (the default): a redelivery is a duplicate, and a
 * record that moves to the same status again (a new change, with its own timestamp) is handled again.
 * `"id+event"`: the interface document's plain rule; a record's second move to a status it had within the
 * TTL is dropped as a duplicate. A function: your own key (a non-empty string).
 */
export type DedupKeyStrategy = "id+event+timestamp" | "id+event" | ((event: DedupKey) => string);

/** The key of an earlier version of this package, and of `dedupKey: "id+event"`: `id:event`. */
export const idEventKey = (event: DedupKey): string => `${event.id}:${event.event}`;

/** The default key: `id:event:timestamp`. A TypeError without a timestamp string (not a whole event). */
export function idEventTimestampKey(event: DedupKey): string {
  if (typeof event.timestamp !== "string") {
    throw new TypeError(
      'the dedup key is id + event + timestamp, and this event has no timestamp: pass the whole event, or set dedupKey: "id+event"',
    );
  }
  return `${event.id}:${event.event}:${event.timestamp}`;
}

/**
 * The function that makes an event's dedup key under `strategy`; a TypeError for an unknown strategy, and
 * (at each call) for a key function that returns anything but a non-empty string.
 *
 * @example
 * dedupKeyOf()({ id: "9a8b…", event: "VERIFIED", timestamp: "2026-03-01T09:30:05Z" }); // "9a8b…:VERIFIED:2026-03-01T09:30:05Z"
 */
export function dedupKeyOf(strategy: DedupKeyStrategy = "id+event+timestamp"): (event: DedupKey) => string {
  if (strategy === "id+event+timestamp") return idEventTimestampKey;
  if (strategy === "id+event") return idEventKey;
  if (typeof strategy !== "function") {
    throw new TypeError(`dedupKey must be "id+event+timestamp", "id+event" or a function, got ${String(strategy)}`);
  }
  return (event) => {
    const key: unknown = strategy(event);
    if (typeof key !== "string" || key === "") {
      throw new TypeError(`the dedupKey function must return a non-empty string, got ${typeof key}`);
    }
    return key;
  };
}

/** The moment given as `legacyKeysBefore`, in milliseconds; a TypeError for anything but a valid Date. */
export function legacyCutoff(before: Date | undefined): number | undefined {
  if (before === undefined) return undefined;
  if (!(before instanceof Date) || Number.isNaN(before.getTime())) {
    throw new TypeError("legacyKeysBefore must be a valid Date: when the version that keyed on id + event stopped");
  }
  return before.getTime();
}

/**
 * The `id:event` key an earlier version wrote, to check as well: only for an event whose change happened
 * before `cutoff` (an event that could have been handled by that version), and only when the key differs
 * from the event's own. Undefined otherwise, and for a timestamp that is not a date.
 */
export function legacyKeyFor(event: DedupKey, key: string, cutoff: number | undefined): string | undefined {
  if (cutoff === undefined) return undefined;
  const legacy = idEventKey(event);
  return legacy !== key && Date.parse(event.timestamp) < cutoff ? legacy : undefined;
}
