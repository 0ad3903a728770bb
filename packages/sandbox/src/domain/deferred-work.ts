// Work a sandbox schedules for later: a record's next automatic step, a webhook delivery attempt. Scheduled inside
// the transaction that decides it, so work a rolled-back request planned never runs. The domain declares this
// port; schedule/ implements it two ways: timers in this process (TimerWork: the embedded default, one sandbox per
// file), or a job queue in PostgreSQL (QueueWork: replicas on one database, where work outlives the replica that
// scheduled it and runs once across all of them).

/** The kinds of deferred work; each has one handler, registered by the part that owns it. */
export type TaskName = "progress-step" | "webhook-attempt";

/** What a task receives: plain JSON, since another replica may run it. */
export type TaskPayload = Record<string, string | number | boolean | null>;

export type TaskHandler = (payload: TaskPayload) => void | Promise<void>;

export interface DeferredWork {
  /** Registers the task's handler (before start()). */
  handle(task: TaskName, handler: TaskHandler): void;
  /**
   * Runs `task` with `payload` after `delayMs`, replacing work pending under the same `key`. Called inside a
   * store transaction, the work exists only once that transaction commits.
   */
  defer(task: TaskName, key: string, payload: TaskPayload, delayMs: number): Promise<void>;
  /** Drops the work pending under `key` (work already running finishes). */
  cancel(key: string): Promise<void>;
  /** Resolves once no work of `task` is pending or running. */
  idle(task: TaskName): Promise<void>;
  /** Begins running due work. */
  start(): Promise<void>;
  /** Stops running work and drops this process's timers; a queue keeps its jobs for the other replicas. */
  close(): Promise<void>;
  /** Whether the work lives outside this process (a restart finds it again; nothing to resume). */
  readonly durable: boolean;
}
