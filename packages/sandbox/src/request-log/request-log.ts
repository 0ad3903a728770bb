// The request log: every answered request signed for an organization becomes an entry (admission.ts). Entries are
// kept in batches, one transaction per turn of the event loop, after the answers are written: logging never
// delays an answer nor joins a request's transaction, and a burst costs one commit per batch. Readers see
// every entry answered before their own request (a query writes the pending batch first); listeners (the
// dashboard's live view) are told of each batch once it is kept. A batch the database refuses (down, a full disk)
// is kept back and tried again; an entry is only ever dropped past the organization's `maxEntries` waiting, and
// that is said in a warning line with the count.
import { performance } from "node:perf_hooks";
import type { Organization } from "../api/route.js";
import type { OrganizationsByKey } from "../http/auth.js";
import type { AnsweredRequest } from "../http/server.js";
import type { Logger } from "../logger.js";
import { admission, namedKey, type RefusedCount, RefusedRequests } from "./admission.js";
import { entryOf, type RequestLogEntry } from "./entry.js";
import type { RequestLogFilter } from "./log-filter.js";
import type { RequestLogStorage } from "./log-table.js";
import { isStoreUnavailable } from "../store/postgres/pg-database.js";

export interface RequestLogOptions {
  /** Entries kept per organization; the oldest are dropped past it. */
  maxEntries: number;
  /** Bytes kept of each request and response body. */
  maxBodyBytes: number;
}

/** How long a batch the database refused waits before it is tried again. */
export const LOG_RETRY_MS = 1000;

/**
 * What is left of an organization's waiting entries once `more` join them: the newest `max`, and how many of the
 * oldest were dropped to stay within it.
 *
 * @example
 * boundedBacklog([a, b], [c], 2); // { kept: [b, c], dropped: 1 }
 */
export function boundedBacklog<T>(
  waiting: readonly T[],
  more: readonly T[],
  max: number,
): { kept: T[]; dropped: number } {
  const all = [...waiting, ...more];
  const dropped = Math.max(0, all.length - max);
  return { kept: all.slice(dropped), dropped };
}

export const DEFAULT_REQUEST_LOG: RequestLogOptions = { maxEntries: 10_000, maxBodyBytes: 8192 };

/** Reads of the logs themselves are not logged, so following them does not fill them. */
const UNLOGGED_ROUTES = new Set(["GET /_sandbox/requests", "GET /_sandbox/events"]);

/** Whether an answered request is logged: not a read of the logs. */
export function isLogged(answered: Pick<AnsweredRequest, "method" | "route">): boolean {
  return !(answered.route && UNLOGGED_ROUTES.has(`${answered.method} ${answered.route.path}`));
}

export type RequestLogListener = (org: string, entries: readonly RequestLogEntry[]) => void;

export interface RequestLogPage {
  results: RequestLogEntry[];
  /** The organization's oldest and newest numbers kept: a follower whose cursor is below `oldest - 1` missed some. */
  oldest_seq: number;
  latest_seq: number;
  /** Requests naming the organization's key whose signature did not verify: counted, never logged (this replica's). */
  refused: RefusedCount;
}

export class RequestLog {
  private pending = new Map<string, Array<Omit<RequestLogEntry, "seq">>>();
  /** Cancels the pending batch's scheduled flush; undefined when none is scheduled. */
  private cancelFlush: (() => void) | undefined;
  private readonly listeners = new Set<RequestLogListener>();
  private failing = false;
  private readonly refused = new RefusedRequests();
  /** The flushes, one after the other. */
  private flushing: Promise<void> = Promise.resolve();
  /** Batches a transaction has taken and not yet committed or put back. */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly storage: RequestLogStorage,
    private readonly transaction: <R>(work: () => Promise<R>) => Promise<R>,
    private readonly organizationsByKey: OrganizationsByKey<Organization>,
    private readonly options: RequestLogOptions,
    private readonly logger: Logger,
    /**
     * How long entries gather before a batch is kept: 0, the end of the event loop's turn. On PostgreSQL a batch
     * is a few round trips, so batches gather for a few milliseconds instead (fewer, larger batches under load).
     */
    private readonly batchDelayMs = 0,
    /** This process's name among the replicas, in every entry it logs; null when there are none (SQLite). */
    private readonly replica: string | null = null,
  ) {}

  /**
   * Takes an answered request into the next batch when its signature verified for an organization; counts it for
   * the key it names when that did not (see admission.ts); nothing for an unknown key.
   */
  async record(answered: AnsweredRequest): Promise<void> {
    if (!isLogged(answered)) return;
    const apiKey = namedKey(answered.headers);
    const keyOrganization =
      answered.signedBy || apiKey === undefined ? undefined : await this.organizationsByKey.get(apiKey);
    const decided = admission(answered.signedBy, apiKey, keyOrganization);
    if ("refuse" in decided) this.refused.count(decided.refuse.id, Date.now());
    if (!("log" in decided)) return;
    const org = decided.log;
    const entry = entryOf(answered, {
      maxBodyBytes: this.options.maxBodyBytes,
      secrets: [org.apiSecret],
      nowMs: Date.now(),
      nowPerf: performance.now(),
      replica: this.replica,
    });
    const batch = this.pending.get(org.id);
    if (batch) batch.push(entry);
    else this.pending.set(org.id, [entry]);
    this.cancelFlush ??= this.scheduleFlush();
  }

  private scheduleFlush(delayMs = this.batchDelayMs): () => void {
    if (delayMs === 0) {
      const immediate = setImmediate(() => void this.flush());
      return () => clearImmediate(immediate);
    }
    const timer = setTimeout(() => void this.flush(), delayMs);
    return () => clearTimeout(timer);
  }

  /**
   * Keeps the pending batches now, and tells the listeners. A batch the database refuses goes back in line (one
   * warning line when refusals start, one info line when a batch is kept again) and is tried again shortly.
   * Flushes run one after the other, so entries are numbered in the order they were answered.
   */
  flush(): Promise<void> {
    const next = this.flushing.then(async () => await this.keepPending(false));
    this.flushing = next.catch(() => {});
    return next;
  }

  /**
   * `inReader`: the flush runs inside a reader's transaction (query), which a refused batch has spoiled when the
   * database is unavailable or the batch lost a race: the error goes on to the reader's request (answered 503, or
   * run again from the start, when the batch, kept back, is tried again).
   */
  private async keepPending(inReader: boolean): Promise<void> {
    this.cancelFlush?.();
    this.cancelFlush = undefined;
    // A batch another transaction took is committed (or back in line) before the reader reads.
    if (inReader) await Promise.allSettled(this.inFlight);
    for (const org of [...this.pending.keys()]) await this.keepBatch(org, inReader);
    if (this.pending.size > 0) this.cancelFlush ??= this.scheduleFlush(LOG_RETRY_MS);
  }

  /**
   * Keeps what the organization has waiting, taken inside the transaction that keeps it: a reader's transaction
   * holding the database (SQLite) finds it still waiting and keeps it itself. A run that fails puts it back first.
   */
  private async keepBatch(org: string, inReader: boolean): Promise<void> {
    const run = this.transaction(async () => {
      const entries = this.pending.get(org) ?? [];
      this.pending.delete(org);
      try {
        return await this.storage.append(org, entries, this.options.maxEntries);
      } catch (error) {
        this.pending.set(org, [...entries, ...(this.pending.get(org) ?? [])]);
        throw error;
      }
    });
    this.inFlight.add(run);
    let kept: RequestLogEntry[];
    try {
      kept = await run;
    } catch (error) {
      if (inReader && isStoreUnavailable(error)) throw error;
      this.keptBack(org, error);
      return;
    } finally {
      this.inFlight.delete(run);
    }
    if (this.failing) this.logger.info("request log: entries are kept again");
    this.failing = false;
    if (kept.length > 0) for (const listener of this.listeners) listener(org, kept);
  }

  /** A refused batch is back in line: said once, and bounded to the organization's `maxEntries` (drops said). */
  private keptBack(org: string, error: unknown): void {
    // A database that does not answer is said once by the store; a full disk, say, is said here.
    if (!this.failing && !isStoreUnavailable(error)) {
      this.logger.warn(`request log: entries wait to be kept (retried every second): ${String(error)}`);
      this.failing = true;
    }
    const { kept, dropped } = boundedBacklog([], this.pending.get(org) ?? [], this.options.maxEntries);
    this.pending.set(org, kept);
    if (dropped > 0)
      this.logger.warn(
        `request log: ${dropped} entries of ${org} dropped (more than ${this.options.maxEntries} waiting)`,
      );
  }

  /** One page of the organization's log, after what was answered so far is kept. */
  async query(org: string, filter: RequestLogFilter): Promise<RequestLogPage> {
    await this.keepPending(true);
    const { oldest, latest } = await this.storage.bounds(org);
    const refused = this.refused.of(org);
    return { results: await this.storage.query(org, filter), oldest_seq: oldest, latest_seq: latest, refused };
  }

  /** Tells the listeners that another replica kept entries of the organization (they reload: none are given). */
  announce(org: string): void {
    for (const listener of this.listeners) listener(org, []);
  }

  /** Calls `listener` with every batch kept from now on; answers the function that stops it. */
  subscribe(listener: RequestLogListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    await this.flush();
    this.cancelFlush?.();
    this.cancelFlush = undefined;
    const lost = [...this.pending.values()].reduce((n, entries) => n + entries.length, 0);
    if (lost > 0) this.logger.warn(`request log: ${lost} entries not kept at close (the database refused them)`);
    this.pending.clear();
    this.listeners.clear();
  }
}
