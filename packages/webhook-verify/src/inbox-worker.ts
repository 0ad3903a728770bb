import type { ReceivedWebhookEvent } from "./events.js";
import { EventParkedError } from "./inbox-errors.js";
import { decodeRecord, encodeNote, errorText, type InboxRecord, retryDelayMs } from "./inbox-records.js";
import type { InboxEntry, InboxStore } from "./inbox-store.js";
import { retrying } from "./retrying.js";
import { type InboxStoreError, inboxBounded, LeaseLostError } from "./store-errors.js";

/** What a handler learns besides the event. */
export interface InboxContext {
  /** Which run this is: 1 for the first, 2 for the first retry; a run cut short by a crash counts. */
  attempt: number;
  /** The event's dedup key (`id:event:timestamp` by default): what `inbox.replay` takes once it is parked. */
  key: string;
}

/** The work to do for each accepted event, after the delivery was answered. */
export type InboxHandler = (event: ReceivedWebhookEvent, context: InboxContext) => unknown;

export interface WorkerSettings {
  store: InboxStore;
  handler: InboxHandler;
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  timeoutMs: number;
  maxAttempts: number;
  retryFirstMs: number;
  retryMaxMs: number;
  now: () => number;
  report: (error: unknown, event?: ReceivedWebhookEvent) => void;
}

/** How a run ended: `error` when it failed, `final` when no run follows (parked). */
interface Outcome {
  record?: InboxRecord;
  error?: unknown;
  final?: boolean;
}

/** A held entry's lease, renewed every third of it until the entry is settled. */
interface Lease {
  /** A renewal found the entry taken over by another receiver. */
  lost(): boolean;
  /** Stops counting renewals' answers: one that reaches the store after the entry was settled finds it gone. */
  settling(): void;
  stop(): void;
}

/**
 * Takes accepted events from the store and runs the handler on them, `concurrency` at a time: polls every
 * `pollMs`, and at once when this process accepted an event or a run ended.
 */
export class InboxWorker {
  readonly consumer = crypto.randomUUID();
  private readonly settings: WorkerSettings;
  private readonly active = new Set<Promise<void>>();
  private running = false;
  private again = false;
  private failing = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private polling: Promise<void> | undefined;

  constructor(settings: WorkerSettings) {
    this.settings = settings;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops taking entries, waits for the runs in progress to settle, then leaves the store's consumers. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.polling;
    await Promise.allSettled([...this.active]);
    const { store, timeoutMs, report } = this.settings;
    if (store.leave) await inboxBounded("leave", timeoutMs, () => store.leave!(this.consumer)).catch(report);
  }

  /** Looks for work now rather than at the next poll. */
  wake(): void {
    if (!this.running) return;
    if (this.polling) this.again = true;
    else this.schedule(0);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = this.running ? setTimeout(() => this.poll(), ms) : undefined;
  }

  private poll(): void {
    this.polling = this.takeWork().finally(() => {
      this.polling = undefined;
      const soon = this.again;
      this.again = false;
      this.schedule(soon ? 0 : this.settings.pollMs);
    });
  }

  private async takeWork(): Promise<void> {
    const { store, concurrency, leaseMs, timeoutMs, now } = this.settings;
    const room = concurrency - this.active.size;
    if (!this.running || room <= 0) return;
    let entries: InboxEntry[];
    try {
      entries = await inboxBounded("take", timeoutMs, () => store.take(this.consumer, room, leaseMs, now()));
      this.failing = false;
    } catch (error) {
      // The next poll tries again; an outage is reported once, not at every poll.
      if (!this.failing) this.settings.report(error);
      this.failing = true;
      return;
    }
    for (const entry of entries) this.track(this.handle(entry));
    if (entries.length === room) this.again = true; // more may be waiting
  }

  private track(task: Promise<void>): void {
    this.active.add(task);
    void task.finally(() => {
      this.active.delete(task);
      this.wake();
    });
  }

  private async handle(entry: InboxEntry): Promise<void> {
    const lease = this.lease(entry.id);
    try {
      const outcome = await this.run(entry);
      lease.settling();
      await this.settle(entry, outcome, lease);
    } catch (error) {
      // The store stayed unreachable while settling: the entry stays held, and is taken over after its lease.
      this.settings.report(error);
    } finally {
      lease.stop();
    }
  }

  private async run(entry: InboxEntry): Promise<Outcome> {
    let record: InboxRecord;
    try {
      record = decodeRecord(entry.record);
    } catch (error) {
      return { error, final: true };
    }
    const { handler, maxAttempts } = this.settings;
    if (entry.attempt > maxAttempts) {
      const error = new Error(`the receiver stopped during each of its ${maxAttempts} runs (a crash, or a kill)`);
      return { record, error, final: true };
    }
    try {
      await handler(record.event, { attempt: entry.attempt, key: record.key });
      return { record };
    } catch (error) {
      return { record, error, final: entry.attempt >= maxAttempts };
    }
  }

  /** Done, retried later, or parked; a settle that finds the entry taken over reports that it may have run twice. */
  private async settle(entry: InboxEntry, { record, error, final }: Outcome, lease: Lease): Promise<void> {
    const { store, report } = this.settings;
    const key = record?.key ?? `unreadable:${entry.id}`;
    let ours: boolean;
    if (error === undefined) {
      ours = await this.persist("done", () => store.done(this.consumer, entry.id));
    } else if (!final) {
      ours = await this.persist("retry", () => this.retry(entry));
      report(error, record?.event); // after the retry is scheduled: what onError sees has happened
    } else {
      const note = encodeNote({ attempts: entry.attempt, error: errorText(error), parkedAt: this.settings.now() });
      ours = await this.persist("park", () => store.park(this.consumer, entry.id, { key, record: entry.record, note }));
      report(new EventParkedError(key, entry.attempt, error), record?.event);
    }
    if (!ours || lease.lost()) report(new LeaseLostError(key, this.settings.leaseMs), record?.event);
  }

  private retry(entry: InboxEntry): Promise<boolean> {
    const { store, now, retryFirstMs, retryMaxMs } = this.settings;
    const dueAt = now() + retryDelayMs(entry.attempt, retryFirstMs, retryMaxMs);
    return store.retry(this.consumer, entry.id, entry.record, entry.attempt + 1, dueAt);
  }

  private persist(operation: InboxStoreError["operation"], call: () => Promise<boolean>): Promise<boolean> {
    return retrying(() => inboxBounded(operation, this.settings.timeoutMs, call));
  }

  private lease(id: string): Lease {
    const { store, leaseMs, timeoutMs, now } = this.settings;
    let lost = false;
    let settling = false;
    const renew = () =>
      inboxBounded("renew", timeoutMs, () => store.renew(this.consumer, id, now())).then(
        (ours) => void (lost ||= !ours && !settling),
        () => {}, // the next renewal tries again
      );
    const timer = setInterval(renew, leaseMs / 3);
    return { lost: () => lost, settling: () => void (settling = true), stop: () => clearInterval(timer) };
  }
}
