// Deferred work as jobs in PostgreSQL (graphile-worker), for replicas on one database. A job is added by SQL in
// the transaction that decides it (graphile-worker's add_job), so it exists exactly when that transaction
// commits; any replica runs it when it is due, one replica at a time (row locks, SKIP LOCKED), and it survives
// the death of the replica that scheduled it. A job whose handler throws (the database was unreachable) is run
// again with the queue's backoff. The handlers make running a job twice harmless: a step checks the plan it was
// for, an attempt checks that it has not been recorded.
import { EventEmitter } from "node:events";
import type { Logger as QueueLogger, Runner, Task, WorkerEvents, WorkerPool } from "graphile-worker";
import pg from "pg";
import type { Logger } from "../logger.js";
import type { SqlStatement } from "../store/sql.js";
import type { DeferredWork, TaskHandler, TaskName, TaskPayload } from "../domain/deferred-work.js";
import { DEFAULT_LIVENESS, type LivenessTiming, ReplicaLiveness } from "./replica-liveness.js";

export interface QueueWorkOptions {
  /** The database's URL (the replica's own pool connects with it). */
  url: string;
  /** Prepares a statement on the store's connection, so a job is added inside the store's transaction. */
  statement: (sql: string) => SqlStatement;
  /** Runs a callback once the store's current transaction commits (at once outside one). */
  afterCommit: (callback: () => void) => void;
  /** The schema the queue's tables live in: one per sandbox schema, so sandboxes of one database stay apart. */
  schema: string;
  logger: Logger;
  /**
   * How often a replica looks for jobs that came due. Jobs due at once are announced (NOTIFY), and the replica
   * that scheduled a later job wakes its workers when it is due; the poll finds the rest (another replica's, or
   * one whose replica died). Default 1000 ms.
   */
  pollIntervalMs?: number;
  /** Jobs a replica runs at once (webhook attempts wait on receivers: this bounds them). Default 8. */
  concurrency?: number;
  /** How a dead replica's running jobs are found and handed back. */
  liveness?: Partial<LivenessTiming>;
}

/** The queue's schema for a sandbox schema: `public` (the default) gets `exchange_kit_jobs`. */
export function queueSchemaOf(sandboxSchema: string): string {
  return sandboxSchema === "public" ? "exchange_kit_jobs" : `${sandboxSchema}_jobs`;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** A wake-up comes this much after the job's time: the database's clock decides when it is due. */
const WAKE_MARGIN_MS = 5;

/** Failed runs before a job is given up (graphile-worker's backoff: about 1 s, 3 s, 7 s, ... up to about a day). */
const MAX_JOB_ATTEMPTS = 25;

/**
 * @example
 * const work = new QueueWork({ url, statement: (sql) => store.statement(sql), schema: "exchange_kit_jobs", logger });
 * work.handle("progress-step", (payload) => step(payload));
 * await work.start();
 */
export class QueueWork implements DeferredWork {
  readonly durable = true;
  private readonly handlers = new Map<TaskName, TaskHandler>();
  private readonly add: SqlStatement;
  private readonly remove: SqlStatement;
  private readonly schema: string;
  private readonly pollIntervalMs: number;
  private readonly concurrency: number;
  private pool: pg.Pool | undefined;
  /** graphile-worker and its logger, once start() has loaded it. */
  private queue: { module: QueueModule; logger: QueueLogger } | undefined;
  /** The workers, started by launch(): at the first job this replica adds, or one poll interval after start. */
  private launching: Promise<Runner | undefined> | undefined;
  private launchTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private workerPool: WorkerPool | undefined;
  private readonly wakeups = new Set<NodeJS.Timeout>();
  private liveness: ReplicaLiveness | undefined;

  constructor(private readonly options: QueueWorkOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.concurrency = options.concurrency ?? 8;
    this.schema = quoted(options.schema);
    this.add = options.statement(
      `SELECT 1 AS added FROM ${this.schema}.add_job(?, ?::json, run_at => now() + ?::float8 * interval '1 millisecond', max_attempts => ${MAX_JOB_ATTEMPTS}, job_key => ?)`,
    );
    this.remove = options.statement(`SELECT 1 AS removed FROM ${this.schema}.remove_job(?)`);
  }

  handle(task: TaskName, handler: TaskHandler): void {
    this.handlers.set(task, handler);
  }

  async defer(task: TaskName, key: string, payload: TaskPayload, delayMs: number): Promise<void> {
    const delay = Math.max(0, Math.round(delayMs));
    // Held for the transaction's next message or its COMMIT (nobody reads its answer): no round trip of its own.
    await this.add.write(task, JSON.stringify(payload), delay, key);
    this.options.afterCommit(() => {
      this.launch();
      if (delay > 0) this.wakeAfter(delay);
    });
  }

  /** Wakes a worker when a job this replica scheduled comes due, rather than at the next poll. */
  private wakeAfter(delay: number): void {
    // A job committed while the queue closes: the workers are stopping, the job is the other replicas' (or the
    // next start's) to run.
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.wakeups.delete(timer);
      if (this.closed) return;
      try {
        this.workerPool?.nudge(1);
      } catch {
        // The pool's workers stopped (graphile-worker asserts on a nudge then): its next poll, or the next
        // replica's, finds the job all the same.
      }
    }, delay + WAKE_MARGIN_MS);
    timer.unref();
    this.wakeups.add(timer);
  }

  async cancel(key: string): Promise<void> {
    await this.remove.write(key);
  }

  /** Polls the queue: resolves once no job of `task` is waiting or running (given-up jobs do not count). */
  async idle(task: TaskName): Promise<void> {
    const pool = this.pool;
    if (!pool) return;
    const count = `SELECT count(*)::int AS n FROM ${this.schema}.jobs WHERE task_identifier = $1 AND attempts < max_attempts`;
    for (;;) {
      const found = await pool.query(count, [task]).catch(() => undefined);
      if (!found || found.rows[0]?.n === 0 || this.closed) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /**
   * Opens the pool and brings the queue's schema up to date (add_job must exist before the first job is added);
   * the workers start at this replica's first job, or one poll interval from now, whichever comes first. Until
   * then there is nothing of this replica's to run, and another replica's jobs are that replica's to run (a dead
   * one's are freed only after the liveness grace, far longer), so a replica that lives briefly and schedules
   * nothing never opens the workers' connections nor waits for their first poll when it stops.
   */
  async start(): Promise<void> {
    const { url, logger } = this.options;
    const pool = new pg.Pool({
      connectionString: url,
      max: this.concurrency + 2,
      application_name: "exchange-kit-sandbox",
    });
    // A connection the server drops (restart) must not take the process down; the pool opens another.
    pool.on("error", (error) => logger.warn(`job queue: connection lost (${error.message})`));
    pool.on("connect", (client) => client.on("error", () => {}));
    this.pool = pool;
    const module = await loadQueue();
    this.queue = { module, logger: queueLogger(module, logger) };
    await module.runMigrations({ pgPool: pool, schema: this.options.schema, logger: this.queue.logger });
    this.launchLater();
  }

  /** Starts the workers one poll interval from now, unless a job this replica adds starts them first. */
  private launchLater(): void {
    this.launchTimer = setTimeout(() => this.launch(), this.pollIntervalMs);
    this.launchTimer.unref();
  }

  /** Starts the workers (once; never after close). */
  private launch(): void {
    if (this.closed || this.launching) return;
    clearTimeout(this.launchTimer);
    this.launching = this.runWorkers().catch((error: Error) => {
      // The database is down, say: tried again a poll interval later (or at the next job added).
      this.options.logger.warn(`job queue: the workers did not start (${error.message})`);
      this.launching = undefined;
      this.launchLater();
      return undefined;
    });
  }

  private async runWorkers(): Promise<Runner | undefined> {
    const { url, logger } = this.options;
    const { pool, queue } = this;
    if (!pool || !queue) return undefined;
    const events: WorkerEvents = new EventEmitter();
    events.on("pool:create", ({ workerPool }) => {
      this.workerPool = workerPool;
    });
    const timing = { ...DEFAULT_LIVENESS, ...this.options.liveness };
    const liveness = new ReplicaLiveness(url, this.options.schema, events, logger, timing);
    let runner: Runner;
    try {
      runner = await queue.module.run({
        pgPool: pool,
        schema: this.options.schema,
        concurrency: this.concurrency,
        pollInterval: this.pollIntervalMs,
        noHandleSignals: true,
        taskList: this.taskList(),
        logger: queue.logger,
        events,
      });
    } catch (error) {
      // A launch tried again later makes its own: this one's connection (opened if a pool was created) is closed.
      await liveness.close();
      throw error;
    }
    this.liveness = liveness;
    liveness.start();
    return runner;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.launchTimer);
    for (const timer of this.wakeups) clearTimeout(timer);
    this.wakeups.clear();
    const runner = await this.launching;
    this.launching = undefined;
    // A graceful stop: running jobs finish (or are released), pending ones stay for the other replicas.
    await runner?.stop().catch(() => {});
    await this.liveness?.close();
    await this.pool?.end().catch(() => {});
    this.pool = undefined;
  }

  private taskList(): Record<string, Task> {
    const list: Record<string, Task> = {};
    for (const [task, handler] of this.handlers) list[task] = async (payload) => handler(payload as TaskPayload);
    return list;
  }
}

type QueueModule = typeof import("graphile-worker");

/**
 * graphile-worker, loaded when a sandbox opens a PostgreSQL database: an optional peer dependency, so the embedded
 * default (a laptop, CI) does not install its ~6 MB. Missing, the start is refused with what to install.
 */
async function loadQueue(): Promise<QueueModule> {
  try {
    return await import("graphile-worker");
  } catch (error) {
    throw queueLoadFailure(error);
  }
}

/**
 * What a failed import of graphile-worker becomes: a missing package says what to install; anything else is
 * itself (a broken install must not read as a missing one).
 *
 * @example
 * queueLoadFailure(Object.assign(new Error("Cannot find package"), { code: "ERR_MODULE_NOT_FOUND" })).message;
 * // "the sandbox on PostgreSQL runs its scheduled work on graphile-worker, which is not installed: ..."
 */
export function queueLoadFailure(error: unknown): unknown {
  const code = (error as { code?: string } | undefined)?.code;
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return error;
  return new Error(
    "the sandbox on PostgreSQL runs its scheduled work on graphile-worker, which is not installed: npm install graphile-worker@^0.18",
  );
}

/** The queue's log lines, as the sandbox's: its warnings and errors, never its debug chatter. */
function queueLogger(queue: QueueModule, logger: Logger): QueueLogger {
  return new queue.Logger(() => (level, message) => {
    if (level === "error") logger.error(`job queue: ${message}`);
    else if (level === "warning") logger.warn(`job queue: ${message}`);
  });
}
