// Automatic progress: records that have a plan (the statuses still ahead of them) take the next step
// `autoProgressMs` after the previous one. With autoProgressMs = 0 the step runs right after the response; with
// false nothing moves on its own and the control API drives every record.
export type ProgressKind = "customer" | "bank" | "payin" | "payout" | "edd";

export class AutoProgress {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly delayMs: () => number | false,
    private readonly step: (kind: ProgressKind, id: string) => boolean,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** Takes the record's next planned step after the configured delay (replacing a pending one). */
  schedule(kind: ProgressKind, id: string): void {
    const delay = this.delayMs();
    if (delay === false || this.closed) return;
    const key = `${kind}:${id}`;
    this.cancel(kind, id);
    const timer = setTimeout(() => {
      this.timers.delete(key);
      try {
        // step() answers whether more steps remain.
        if (this.step(kind, id)) this.schedule(kind, id);
      } catch (error) {
        // A timer must never take the server down; the record stays where it was.
        this.onError(error);
      }
    }, delay);
    this.timers.set(key, timer);
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
