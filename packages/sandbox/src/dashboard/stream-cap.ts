// How many live streams each session holds open on this replica: a session past the limit is refused a new one
// (each stream holds a socket and two subscriptions) until one of its own closes. Counted in memory: a stream
// lives on one connection to one replica, and a replica that stops takes its streams along.

/**
 * Open streams per key (a session's digest), at most `limit` each.
 *
 * @example
 * const cap = new StreamCap(1);
 * cap.take("s"); // true
 * cap.take("s"); // false, until cap.give("s")
 */
export class StreamCap {
  private readonly open = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Counts one more stream of the key; false (and nothing counted) when it already holds `limit`. */
  take(key: string): boolean {
    const held = this.open.get(key) ?? 0;
    if (held >= this.limit) return false;
    this.open.set(key, held + 1);
    return true;
  }

  /** One stream of the key has closed. */
  give(key: string): void {
    const held = (this.open.get(key) ?? 0) - 1;
    if (held > 0) this.open.set(key, held);
    else this.open.delete(key);
  }
}
