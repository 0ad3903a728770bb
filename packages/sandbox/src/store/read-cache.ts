// A replica's memory of rarely written state read at nearly every request: organizations (authentication), the
// fault rules armed (most requests meet none), clock offsets and settings. On SQLite the process is the database's
// only writer, so what it read stays true until it writes. On PostgreSQL other replicas write too: the cache is
// used only while this replica hears their changes (the change feed, LISTEN/NOTIFY), is emptied when it starts
// hearing again (changes may have been missed meanwhile), and drops an entry as soon as any replica's commit
// of that kind and key is heard. The feed is fast but not strict (a notice may still be on its way when the
// client's next request reaches another replica), so each request first reads one mark (the generation, which
// every commit of cached state changes) and finds everything forgotten when it moved: a request never sees state
// older than what was acknowledged before it. A value written by an open transaction is never remembered (it may
// roll back), nor one whose read was overtaken by a change (several requests are in flight at once).

/** Which cached value a change touches: a kind of state and the key within it (an organization's ID, a meta key). */
export function cacheKey(kind: string, key: string): string {
  return `${kind}\n${key}`;
}

/** Entries remembered at most before the cache starts over (a stream of made-up keys must not fill memory). */
const MAX_ENTRIES = 10_000;

/**
 * @example
 * const cache = new ReadCache(true);
 * await cache.read("organization", id, () => store.organizations.get(id)); // read once, then remembered
 * cache.changed("organization", id); // another replica wrote it: read again next time
 */
export class ReadCache {
  private readonly entries = new Map<string, unknown>();
  /** The database's mark of the last change of cached state, as last checked (see Store.freshenCache). */
  private generation: string | undefined;
  /** Moves at every change: a value read before one may be stale, and is not remembered. */
  private changes = 0;
  /** Moves whenever everything is forgotten (a new generation, hearing or not): see isCurrent. */
  private emptied = 0;

  /** @param live whether remembered values may be used (false until a PostgreSQL replica hears the others). */
  constructor(private live: boolean) {}

  /**
   * The remembered value, or what `load` reads now: remembered unless undefined, written by the transaction that
   * reads it (`written`, its keys), or overtaken by a change while it was read.
   */
  async read<T>(
    kind: string,
    key: string,
    load: () => Promise<T | undefined>,
    written?: ReadonlySet<string>,
  ): Promise<T | undefined> {
    const id = cacheKey(kind, key);
    if (this.live && this.entries.has(id)) return this.entries.get(id) as T;
    const before = this.changes;
    const value = await load();
    if (this.live && value !== undefined && before === this.changes && !written?.has(id)) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(id, value);
    }
    return value;
  }

  /** An open transaction writes it: forgotten now; `written` (that transaction's keys) keeps it from being remembered. */
  writing(kind: string, key: string, written: Set<string>): void {
    const id = cacheKey(kind, key);
    this.forget(id);
    written.add(id);
  }

  /** A transaction ended (committed or rolled back): what it wrote is read fresh next time. */
  ended(written: ReadonlySet<string>): void {
    for (const id of written) this.forget(id);
  }

  private forget(id: string): void {
    this.changes++;
    this.entries.delete(id);
  }

  /** A replica committed a change of this kind and key. */
  changed(kind: string, key: string): void {
    this.forget(cacheKey(kind, key));
  }

  /** Whether remembered values are used now. */
  get isLive(): boolean {
    return this.live;
  }

  /**
   * The database's mark of the last change of cached state, read at the start of a request: a mark other than the
   * one last seen means some replica changed cached state since, and everything is forgotten.
   */
  validate(generation: string | undefined): void {
    if (generation === this.generation) return;
    this.generation = generation;
    this.changes++;
    this.emptied++;
    this.entries.clear();
  }

  /** A count that moves whenever the cache forgets everything: a request notes it when it starts. */
  get epoch(): number {
    return this.emptied;
  }

  /**
   * Whether a request that started at `epoch` and finds the database's mark at `generation` read nothing stale
   * from the cache: the mark is the one last seen, and the cache was not emptied since the request started.
   */
  isCurrent(generation: string | undefined, epoch: number): boolean {
    return generation === this.generation && epoch === this.emptied;
  }

  /** Whether remembered values are used; turning it either way forgets everything. */
  setLive(live: boolean): void {
    this.live = live;
    this.changes++;
    this.emptied++;
    this.entries.clear();
  }
}
