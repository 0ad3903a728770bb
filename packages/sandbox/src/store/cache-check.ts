// A request checks the replica's cache once (issue 33): instead of a round trip of its own before it reads anything
// (Store.freshenCache), the read of the cache's generation travels with the first message of the request's first
// transaction, and is compared before that transaction commits. Everything the request decided from the cache before
// (authentication, the fault stage) is then known good, or the request is found stale before anything of it was
// committed, and is run again from the start after the cache is refreshed. A request that opens no transaction
// reads the generation once at its end, as before.
import { AsyncLocalStorage } from "node:async_hooks";

/** A request's transaction found the cache's generation moved: nothing of the request was committed. */
export class StaleCacheError extends Error {
  constructor() {
    super("the replica's cache was older than the database: the request runs again");
    this.name = "StaleCacheError";
  }
}

/** What a request running against the cache keeps: whether and how its check went. */
export interface CacheMark {
  /** The cache's epoch when the request started (it moves whenever the cache is emptied). */
  readonly epoch: number;
  /** A transaction of the request checked the generation (later ones need not). */
  checked: boolean;
  /** The check found the generation moved. */
  stale: boolean;
  /** The request still runs: work it left behind (a log batch, a timer) is not its to check. */
  open: boolean;
}

/** What the check compares against: the cache's generation as last seen, and its epoch. */
export interface CheckedCache {
  readonly epoch: number;
  /** Whether `generation` (read now) and `epoch` (when the request started) say the cache held nothing stale. */
  isCurrent(generation: string | undefined, epoch: number): boolean;
  /** The generation read now: the cache forgets everything if it moved (ReadCache.validate). */
  validate(generation: string | undefined): void;
}

/** A request's outcome against the cache: stale (run it again), or its result. */
export type Checked<R> = { stale: true } | { stale: false; result: R };

/**
 * @example
 * const checks = new CacheChecks(cache);
 * const checked = await checks.run(() => handle(request), readGeneration); // { stale: false, result }
 */
export class CacheChecks {
  private readonly marks = new AsyncLocalStorage<CacheMark>();

  constructor(private readonly cache: CheckedCache) {}

  /**
   * Runs a request's `work`; answers stale when its check found the cache older than the database (nothing of it
   * committed), else what `work` answered (its error thrown as it was). `readGeneration` reads the mark when no
   * transaction of `work` did.
   *
   * @example
   * const checked = await checks.run(() => handle(request), readGeneration);
   * if (checked.stale) { await store.freshenCache(); await handle(request); }
   */
  async run<R>(work: () => Promise<R>, readGeneration: () => Promise<string | undefined>): Promise<Checked<R>> {
    const mark: CacheMark = { epoch: this.cache.epoch, checked: false, stale: false, open: true };
    let outcome: { ok: true; result: R } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, result: await this.marks.run(mark, work) };
    } catch (error) {
      outcome = { ok: false, error };
    } finally {
      mark.open = false;
    }
    if (!mark.checked && !mark.stale) this.settle(mark, await readGeneration());
    if (mark.stale) return { stale: true };
    if (!outcome.ok) throw outcome.error;
    return { stale: false, result: outcome.result };
  }

  /** The check a transaction starting now must make: the running request's, when none of its transactions did. */
  pending(): CacheMark | undefined {
    const mark = this.marks.getStore();
    return mark?.open && !mark.checked ? mark : undefined;
  }

  /**
   * Compares the generation read for `mark`: false when it moved (the request is stale: a transaction checking
   * it then throws StaleCacheError, so it rolls back).
   */
  settle(mark: CacheMark, generation: string | undefined): boolean {
    mark.checked = true;
    if (this.cache.isCurrent(generation, mark.epoch)) return true;
    mark.stale = true;
    this.cache.validate(generation);
    return false;
  }
}
