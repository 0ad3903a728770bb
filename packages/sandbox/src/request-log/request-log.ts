// The request log: every answered request signed for an organization becomes an entry (admission.ts). Entries are
// kept in batches, one transaction per turn of the event loop, after the answers are written: logging never
// delays an answer nor joins a request's transaction, and a burst costs one commit per batch. Readers see
// every entry answered before their own request (a query writes the pending batch first); listeners (the
// dashboard's live view) are told of each batch once it is kept.
import { performance } from "node:perf_hooks";
import type { Organization } from "../http/route.js";
import type { OrganizationsByKey } from "../http/auth.js";
import type { AnsweredRequest } from "../http/server.js";
import type { Logger } from "../logger.js";
import { admission, namedKey, type RefusedCount, RefusedRequests } from "./admission.js";
import { entryOf, type RequestLogEntry } from "./entry.js";
import type { RequestLogFilter } from "./log-filter.js";
import type { RequestLogStorage } from "./log-table.js";

export interface RequestLogOptions {
  /** Entries kept per organization; the oldest are dropped past it. */
  maxEntries: number;
  /** Bytes kept of each request and response body. */
  maxBodyBytes: number;
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

  constructor(
    private readonly storage: RequestLogStorage,
    private readonly transaction: <R>(work: () => R) => R,
    private readonly organizationsByKey: OrganizationsByKey<Organization>,
    private readonly options: RequestLogOptions,
    private readonly logger: Logger,
    /**
     * How long entries gather before a batch is kept: 0, the end of the event loop's turn. On PostgreSQL a turn
     * runs only a few milliseconds of requests (http/turnstile.ts) and a batch is four round trips, so batches
     * wait a few milliseconds instead.
     */
    private readonly batchDelayMs = 0,
  ) {}

  /**
   * Takes an answered request into the next batch when its signature verified for an organization; counts it for
   * the key it names when that did not (see admission.ts); nothing for an unknown key.
   */
  record(answered: AnsweredRequest): void {
    if (!isLogged(answered)) return;
    const apiKey = namedKey(answered.headers);
    const keyOrganization = answered.signedBy || apiKey === undefined ? undefined : this.organizationsByKey.get(apiKey);
    const decided = admission(answered.signedBy, apiKey, keyOrganization);
    if ("refuse" in decided) this.refused.count(decided.refuse.id, Date.now());
    if (!("log" in decided)) return;
    const org = decided.log;
    const entry = entryOf(answered, {
      maxBodyBytes: this.options.maxBodyBytes,
      secrets: [org.apiSecret],
      nowMs: Date.now(),
      nowPerf: performance.now(),
    });
    const batch = this.pending.get(org.id);
    if (batch) batch.push(entry);
    else this.pending.set(org.id, [entry]);
    this.cancelFlush ??= this.scheduleFlush();
  }

  private scheduleFlush(): () => void {
    if (this.batchDelayMs === 0) {
      const immediate = setImmediate(() => this.flush());
      return () => clearImmediate(immediate);
    }
    const timer = setTimeout(() => this.flush(), this.batchDelayMs);
    return () => clearTimeout(timer);
  }

  /** Keeps the pending batch now, and tells the listeners. A failure (a full disk) drops it, said once. */
  flush(): void {
    this.cancelFlush?.();
    this.cancelFlush = undefined;
    const pending = this.pending;
    this.pending = new Map();
    for (const [org, entries] of pending) {
      let kept: RequestLogEntry[];
      try {
        kept = this.transaction(() => this.storage.append(org, entries, this.options.maxEntries));
        this.failing = false;
      } catch (error) {
        if (!this.failing) this.logger.warn(`request log: ${entries.length} entries dropped: ${String(error)}`);
        this.failing = true;
        continue;
      }
      for (const listener of this.listeners) listener(org, kept);
    }
  }

  /** One page of the organization's log, after what was answered so far is kept. */
  query(org: string, filter: RequestLogFilter): RequestLogPage {
    this.flush();
    const { oldest, latest } = this.storage.bounds(org);
    const refused = this.refused.of(org);
    return { results: this.storage.query(org, filter), oldest_seq: oldest, latest_seq: latest, refused };
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

  close(): void {
    this.flush();
    this.listeners.clear();
  }
}
