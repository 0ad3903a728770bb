// Deferred work on this process's timers: the embedded sandbox's (one process per file). A timer starts once the
// transaction that scheduled it commits; a restart loses the timers, and the sandbox resumes what its records
// still have planned (domain.resumePlans).
import type { DeferredWork, TaskHandler, TaskName, TaskPayload } from "../domain/deferred-work.js";

interface Pending {
  readonly task: TaskName;
  readonly timer: NodeJS.Timeout;
}

/**
 * @example
 * const work = new TimerWork((callback) => store.afterCommit(callback));
 * work.handle("progress-step", (payload) => step(payload));
 * store.transaction(() => work.defer("progress-step", "KYC:id", { id }, 200));
 */
export class TimerWork implements DeferredWork {
  readonly durable = false;
  private readonly handlers = new Map<TaskName, TaskHandler>();
  private readonly pending = new Map<string, Pending>();
  private readonly running = new Map<TaskName, number>();
  private readonly waiters: Array<{ task: TaskName; resolve: () => void }> = [];
  private closed = false;

  constructor(
    /** Runs a callback once the current transaction commits (at once outside one). */
    private readonly afterCommit: (callback: () => void) => void,
  ) {}

  handle(task: TaskName, handler: TaskHandler): void {
    this.handlers.set(task, handler);
  }

  async defer(task: TaskName, key: string, payload: TaskPayload, delayMs: number): Promise<void> {
    this.afterCommit(() => {
      if (this.closed) return;
      this.drop(key);
      const timer = setTimeout(() => {
        this.pending.delete(key);
        this.run(task, payload);
      }, delayMs);
      this.pending.set(key, { task, timer });
    });
  }

  async cancel(key: string): Promise<void> {
    this.afterCommit(() => this.drop(key));
  }

  private drop(key: string): void {
    const pending = this.pending.get(key);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pending.delete(key);
    this.settle();
  }

  idle(task: TaskName): Promise<void> {
    if (!this.busy(task)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ task, resolve }));
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.pending.values()) clearTimeout(pending.timer);
    this.pending.clear();
    this.running.clear();
    this.settle();
  }

  private run(task: TaskName, payload: TaskPayload): void {
    const handler = this.handlers.get(task);
    if (!handler || this.closed) {
      this.settle();
      return;
    }
    this.running.set(task, (this.running.get(task) ?? 0) + 1);
    // Handlers catch their own failures; a rejection here is a bug, never a crash of the server.
    Promise.resolve()
      .then(() => handler(payload))
      .catch(() => {})
      .finally(() => {
        this.running.set(task, Math.max(0, (this.running.get(task) ?? 0) - 1));
        this.settle();
      });
  }

  private busy(task: TaskName): boolean {
    if ((this.running.get(task) ?? 0) > 0) return true;
    for (const pending of this.pending.values()) if (pending.task === task) return true;
    return false;
  }

  private settle(): void {
    for (const waiter of [...this.waiters]) {
      if (this.busy(waiter.task) && !this.closed) continue;
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }
}
