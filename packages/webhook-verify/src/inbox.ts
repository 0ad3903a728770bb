import { type DedupKeyStrategy, dedupKeyOf, legacyCutoff, legacyKeyFor } from "./dedup-key.js";
import { leaseMilliseconds } from "./deduplicator.js";
import type { ReceivedWebhookEvent } from "./events.js";
import { decodeNote, decodeRecord, encodeRecord } from "./inbox-records.js";
import type { InboxStore, ParkedRecord } from "./inbox-store.js";
import { type InboxContext, type InboxHandler, InboxWorker } from "./inbox-worker.js";
import { inboxBounded } from "./store-errors.js";

export type { InboxContext, InboxHandler };

/** How an inbox stores, runs, retries and parks events; only `store` and `handler` are required. */
export interface InboxOptions {
  /** Where accepted events wait: `redisInbox(client)` from `/redis` (survives a crash), or `memoryInbox()`. */
  store: InboxStore;
  /** Runs once per accepted event, after the delivery was answered; a throw is retried with backoff. */
  handler: InboxHandler;
  /** Runs an event gets before it is parked (`parked()`, `replay()`). Default 8. */
  maxAttempts?: number;
  /** The wait before the first retry, in seconds, doubling each time. Default 1. */
  retryDelaySeconds?: number;
  /** The longest wait between retries, in seconds. Default 300. */
  maxRetryDelaySeconds?: number;
  /**
   * How long a receiver holds an event it runs without renewing it, in seconds, from 0.1 to 3600: renewed
   * every third of it, so a receiver that dies mid-handler leaves its events to the others (or to itself,
   * restarted) this long after. A handler that blocks the event loop longer cannot renew: another receiver
   * may run the event too (reported as a LeaseLostError). Default 30.
   */
  leaseSeconds?: number;
  /** Events run at once by this process. Default 4. */
  concurrency?: number;
  /** How often the store is asked for work, in milliseconds; this process's own deliveries wake it at once. Default 1000. */
  pollIntervalMs?: number;
  /** Longest wait for one store call, in milliseconds; a delivery whose append takes longer gets 503. Default 1000. */
  storeTimeoutMs?: number;
  /** How long an accepted event's dedup key is remembered, so that redeliveries are not appended again. Default 7 days. */
  ttlSeconds?: number;
  /**
   * Which deliveries count as one event, as for `createDeduplicator`. Default `"id+event+timestamp"`: a
   * redelivery is a duplicate, a record's new move to a status it had before is a new event. `"id+event"`
   * is the interface document's plain rule; or a function.
   */
  dedupKey?: DedupKeyStrategy;
  /**
   * After upgrading from a version that keyed on `id:event`: the moment its last receiver stopped. An event
   * whose change (`timestamp`) is earlier is also a duplicate when that version's mark says it was accepted.
   * Needs a store that takes `append`'s `legacyKey` (both of this package's do).
   */
  legacyKeysBefore?: Date;
  /**
   * Handler failures (each run), EventParkedError, LeaseLostError and store failures. Default: console.error.
   */
  onError?: (error: unknown, event?: ReceivedWebhookEvent) => void;
  /** The clock in milliseconds, for retry times and leases. Default Date.now. For tests. */
  now?: () => number;
}

/** An event that failed its last run, kept for `replay`. */
export interface ParkedEvent {
  /** The dedup key (`id:event:timestamp` by default): what `replay` takes. */
  key: string;
  /** The event; undefined only when its record could not be read. */
  event: ReceivedWebhookEvent | undefined;
  /** Runs it had. */
  attempts: number;
  /** The last run's error, as text. */
  error: string;
  /** When it was parked, on the inbox's clock. */
  parkedAt: Date;
}

/**
 * A durable inbox: the webhook handlers record each verified event here before answering 200, and a worker
 * (`start()`) runs the handler on it afterwards, retrying failures and parking what keeps failing.
 */
export interface Inbox {
  /** Records a verified event: `duplicate` when it was recorded before (a redelivery). Resolved = stored. */
  accept(event: ReceivedWebhookEvent): Promise<"accepted" | "duplicate">;
  /** Starts running accepted events, this process's and those a dead receiver left. */
  start(): void;
  /** Stops taking events and waits for the runs in progress to finish. */
  stop(): Promise<void>;
  /** The parked events. */
  parked(): Promise<ParkedEvent[]>;
  /** Runs a parked event again from its first attempt; false when nothing is parked under `key`. */
  replay(key: string): Promise<boolean>;
}

function positive(value: number, name: string, integer = false): number {
  if (!(value > 0 && value < Infinity) || (integer && !Number.isInteger(value))) {
    throw new TypeError(`${name} must be ${integer ? "an integer " : ""}> 0, got ${value}`);
  }
  return value;
}

function workerSettings(options: InboxOptions) {
  const { store, handler, maxAttempts = 8, retryDelaySeconds = 1, maxRetryDelaySeconds = 300 } = options;
  if (typeof handler !== "function") throw new TypeError("createInbox needs a handler function");
  if (typeof store?.take !== "function")
    throw new TypeError("createInbox needs a store: redisInbox() or memoryInbox()");
  const retryMaxMs = positive(maxRetryDelaySeconds, "maxRetryDelaySeconds") * 1000;
  return {
    store,
    handler,
    maxAttempts: positive(maxAttempts, "maxAttempts", true),
    retryFirstMs: Math.min(positive(retryDelaySeconds, "retryDelaySeconds") * 1000, retryMaxMs),
    retryMaxMs,
    leaseMs: leaseMilliseconds(options.leaseSeconds ?? 30, "leaseSeconds"),
    concurrency: positive(options.concurrency ?? 4, "concurrency", true),
    pollMs: positive(options.pollIntervalMs ?? 1000, "pollIntervalMs"),
    timeoutMs: positive(options.storeTimeoutMs ?? 1000, "storeTimeoutMs"),
    now: options.now ?? Date.now,
  };
}

function parkedEvent({ key, record, note }: ParkedRecord): ParkedEvent {
  let event: ReceivedWebhookEvent | undefined;
  try {
    event = decodeRecord(record).event;
  } catch {
    // listed all the same, so that it is seen
  }
  const { attempts, error, parkedAt } = decodeNote(note);
  return { key, event, attempts, error, parkedAt: new Date(parkedAt) };
}

/**
 * A durable inbox for verified events. Give it to `createWebhookHandler` or `createNodeWebhookHandler` as
 * `inbox` (in place of `onEvent`): a delivery is answered 200 only once its event is stored, and `start()`
 * runs `handler` on it. With `redisInbox`, an event survives the receiver's crash: another receiver, or this
 * one restarted, runs it after `leaseSeconds`. Handlers must be idempotent: a receiver that dies after the
 * handler's effect but before the entry is removed leaves the event to run again.
 *
 * @example
 * const inbox = createInbox({ store: redisInbox(redis, { persistence: "require" }), handler: applyEvent });
 * inbox.start();
 * app.post("/webhooks/exchange", createNodeWebhookHandler({ apiKey, apiSecret, inbox }));
 * process.on("SIGTERM", () => void inbox.stop());
 */
export function createInbox(options: InboxOptions): Inbox {
  const settings = workerSettings(options);
  const ttlMs = positive(options.ttlSeconds ?? 7 * 24 * 3600, "ttlSeconds") * 1000;
  const { store, timeoutMs, now } = settings;
  const { onError = (error: unknown) => console.error("webhook inbox:", error) } = options;
  const report = (error: unknown, event?: ReceivedWebhookEvent) => {
    try {
      onError(error, event);
    } catch (failure) {
      console.error("webhook inbox: onError threw:", failure);
    }
  };
  const worker = new InboxWorker({ ...settings, report });
  const keyOf = dedupKeyOf(options.dedupKey);
  const cutoff = legacyCutoff(options.legacyKeysBefore);
  return {
    async accept(event) {
      const key = keyOf(event);
      const legacy = legacyKeyFor(event, key, cutoff);
      const record = encodeRecord(key, event);
      const fresh = await inboxBounded("append", timeoutMs, () => store.append(key, record, ttlMs, now(), legacy));
      if (fresh) worker.wake();
      return fresh ? "accepted" : "duplicate";
    },
    start: () => worker.start(),
    stop: () => worker.stop(),
    parked: async () => (await inboxBounded("parked", timeoutMs, () => store.parked())).map(parkedEvent),
    replay: async (key) => {
      const replayed = await inboxBounded("replay", timeoutMs, () => store.replay(key));
      if (replayed) worker.wake();
      return replayed;
    },
  };
}
