// Automatic progress: records that have a plan (the statuses still ahead of them) take the next step
// `autoProgressMs` after the previous one. With autoProgressMs = 0 the step runs right after the response; with
// false nothing moves on its own and the control API drives every record. A step whose transaction fails
// because the disk is full or failing is tried again with backoff (StorageRecovery) rather than dropped: no
// client is there to retry it, and without this the record would stay where it was until a restart.
import type { StorageRecovery } from "../store/storage-recovery.js";

export type ProgressKind = "customer" | "bank" | "payin" | "payout" | "edd";

export class AutoProgress {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly delayMs: () => number | false,
    private readonly step: (kind: ProgressKind, id: string) => boolean,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly recovery?: StorageRecovery,
  ) {}

  /** Takes the record's next planned step after the configured delay (replacing a pending one). */
  schedule(kind: ProgressKind, id: string): void {
    const delay = this.delayMs();
    if (delay === false || this.closed) return;
    this.arm(kind, id, delay, 0);
  }

  /** Sets the record's one timer; `retry` counts the tries of this step that failed for want of storage. */
  private arm(kind: ProgressKind, id: string, delay: number, retry: number): void {
    const key = `${kind}:${id}`;
    this.cancel(kind, id);
    const timer = setTimeout(() => {
      this.timers.delete(key);
      this.fire(kind, id, retry);
    }, delay);
    this.timers.set(key, timer);
  }

  private fire(kind: ProgressKind, id: string, retry: number): void {
    if (retry > 0) this.recovery?.beforeRetry();
    try {
      // step() answers whether more steps remain.
      const more = this.step(kind, id);
      this.recovery?.succeeded();
      if (more) this.schedule(kind, id);
    } catch (error) {
      // A timer must never take the server down; the record stays where it was until the step commits.
      const wait = this.recovery?.failed(`automatic step of ${kind} ${id}`, error, retry + 1);
      if (wait === undefined) this.onError(error);
      else if (!this.closed) this.arm(kind, id, wait, retry + 1);
    }
  }

  cancel(kind: ProgressKind, id: string): void {
    const key = `${kind}:${id}`;
    const timer = this.timers.get(key);
    if (timer) clearTimeout(timer);
    this.timers.delete(key);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
