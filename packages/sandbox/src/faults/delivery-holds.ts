// OUT_OF_ORDER deliveries: an event's delivery is held until a later event of the same record has had its first
// delivery attempt, so the receiver meets the record's events in the wrong order, as the document allows
// ("ordering guarantees: not shown"). A hold has a limit: a record that has no later event gets its delivery
// when the limit passes, late but never lost.

interface Held {
  eventId: string;
  /** The later event this delivery now waits for; undefined until one starts. */
  overtakenBy: string | undefined;
  release: (after: string | null) => void;
  timer: NodeJS.Timeout;
}

/**
 * The held deliveries, by record (organization, event type and record ID).
 *
 * @example
 * holds.hold("org|PAYOUT|id", "event-1", (after) => deliver(after), 5000);
 * holds.overtake("org|PAYOUT|id", "event-2"); // event-2 started: event-1 waits for its first attempt
 * holds.passed("org|PAYOUT|id", "event-2"); // now event-1 goes, with after = "event-2"
 */
export class DeliveryHolds {
  private readonly byRecord = new Map<string, Held[]>();

  /** Holds a delivery until a later event of the record passes, or `maxMs` (then `after` is null). */
  hold(record: string, eventId: string, release: (after: string | null) => void, maxMs: number): void {
    const held: Held = {
      eventId,
      overtakenBy: undefined,
      release,
      timer: setTimeout(() => this.free(record, held, null), maxMs),
    };
    const list = this.byRecord.get(record) ?? [];
    list.push(held);
    this.byRecord.set(record, list);
  }

  /** A later event of the record starts its delivery: the deliveries held before it wait for it. */
  overtake(record: string, eventId: string): void {
    for (const held of this.byRecord.get(record) ?? []) {
      if (held.eventId !== eventId) held.overtakenBy ??= eventId;
    }
  }

  /** An event's first delivery attempt is over: the deliveries it overtook go now. */
  passed(record: string, eventId: string): void {
    for (const held of [...(this.byRecord.get(record) ?? [])]) {
      if (held.overtakenBy === eventId) this.free(record, held, eventId);
    }
  }

  close(): void {
    for (const list of this.byRecord.values()) for (const held of list) clearTimeout(held.timer);
    this.byRecord.clear();
  }

  private free(record: string, held: Held, after: string | null): void {
    clearTimeout(held.timer);
    const rest = (this.byRecord.get(record) ?? []).filter((h) => h !== held);
    if (rest.length > 0) this.byRecord.set(record, rest);
    else this.byRecord.delete(record);
    held.release(after);
  }
}
