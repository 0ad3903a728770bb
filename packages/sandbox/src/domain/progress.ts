// Automatic progress: records that have a plan (the statuses still ahead of them) take the next step their
// organization's `autoProgressMs` after the previous one. With autoProgressMs = 0 the step runs right after the
// response; with false nothing of that organization moves on its own and the control API drives its records.
// Delays are real time, not sandbox time: advancing an organization's clock fires no step early. A step whose
// transaction fails because the disk is full or failing is tried again with backoff (StorageRecovery) rather
// than dropped: no client is there to retry it, and without this the record would stay where it was until a
// restart.
import type { RecordTableName } from "../record-kinds.js";
import type { StorageRecovery } from "../store/storage-recovery.js";
import { causeNow, traceStep } from "../tracing/tracing.js";

/** The kinds of record that move on their own: the registry's, by table name (as timers and traces name them). */
export type ProgressKind = RecordTableName;

interface Pending {
  timer: NodeJS.Timeout;
  org: string;
}

/** What scheduled a step (its trace context), kept for the step's span. */
type Cause = ReturnType<typeof causeNow>;

export class AutoProgress {
  private readonly timers = new Map<string, Pending>();
  private closed = false;

  constructor(
    /** The delay of the organization's records, read each time a step is scheduled. */
    private readonly delayMs: (org: string) => number | false,
    private readonly step: (kind: ProgressKind, id: string) => boolean,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly recovery?: StorageRecovery,
  ) {}

  /** Takes the record's next planned step after its organization's delay (replacing a pending one). */
  schedule(kind: ProgressKind, id: string, org: string): void {
    const delay = this.delayMs(org);
    if (delay === false || this.closed) return;
    this.arm(kind, id, org, delay, 0, causeNow());
  }

  /** Sets the record's one timer; `retry` counts the tries of this step that failed for want of storage. */
  private arm(kind: ProgressKind, id: string, org: string, delay: number, retry: number, cause: Cause): void {
    const key = `${kind}:${id}`;
    this.cancel(kind, id);
    const timer = setTimeout(() => {
      this.timers.delete(key);
      this.fire(kind, id, org, retry, cause);
    }, delay);
    this.timers.set(key, { timer, org });
  }

  private fire(kind: ProgressKind, id: string, org: string, retry: number, cause: Cause): void {
    if (retry > 0) this.recovery?.beforeRetry();
    const span = traceStep(cause, kind, id);
    try {
      // step() answers whether more steps remain; the next one is scheduled under this step's span.
      span.run(() => {
        const more = this.step(kind, id);
        this.recovery?.succeeded();
        if (more) this.schedule(kind, id, org);
      });
      span.end(false);
    } catch (error) {
      span.end(true);
      // A timer must never take the server down; the record stays where it was until the step commits.
      const wait = this.recovery?.failed(`automatic step of ${kind} ${id}`, error, retry + 1);
      if (wait === undefined) this.onError(error);
      else if (!this.closed) this.arm(kind, id, org, wait, retry + 1, cause);
    }
  }

  cancel(kind: ProgressKind, id: string): void {
    const key = `${kind}:${id}`;
    const pending = this.timers.get(key);
    if (pending) clearTimeout(pending.timer);
    this.timers.delete(key);
  }

  /** Drops the pending steps of one organization's records (their plans stay stored, to be resumed). */
  cancelOrganization(org: string): void {
    for (const [key, pending] of this.timers) {
      if (pending.org !== org) continue;
      clearTimeout(pending.timer);
      this.timers.delete(key);
    }
  }

  close(): void {
    this.closed = true;
    for (const pending of this.timers.values()) clearTimeout(pending.timer);
    this.timers.clear();
  }
}
