// Jobs a replica was running when it died (kill -9, a lost machine) stay locked by its worker pool; graphile-worker
// frees such locks only after four hours. Each replica therefore holds a session advisory lock per worker of its
// own on a connection of its own: PostgreSQL releases it the moment that connection ends, which a dead process's
// does. Every few seconds a replica looks at the workers that hold jobs; a worker whose lock it can take is gone,
// and its jobs are handed back to the queue (graphile-worker's force_unlock_workers) to be run by whoever is alive.
import type { WorkerEvents } from "graphile-worker";
import pg from "pg";
import type { Logger } from "../logger.js";

/** The advisory lock class of the workers' liveness locks (any constant; ours, "EXKW"). */
const LIVENESS_LOCK = 0x45584b57;
/** How often a replica looks for dead workers' jobs, and how long a new lock is left alone. */
export interface LivenessTiming {
  /** Default 2000 ms. */
  sweepMs: number;
  /** A job locked this recently may belong to a worker that has not taken its lock yet. Default 5 s. */
  graceSeconds: number;
}

export const DEFAULT_LIVENESS: LivenessTiming = { sweepMs: 2000, graceSeconds: 5 };

/**
 * @example
 * const liveness = new ReplicaLiveness(url, "exchange_kit_jobs", events, logger);
 * liveness.start(); // after graphile-worker's run(): its workers announce themselves on `events`
 */
export class ReplicaLiveness {
  private readonly workers = new Set<string>();
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client | undefined> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** One statement at a time on the connection (pg runs them in order, but warns of overlapping calls). */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly url: string,
    private readonly schema: string,
    events: WorkerEvents,
    private readonly logger: Logger,
    private readonly timing: LivenessTiming = DEFAULT_LIVENESS,
  ) {
    // Jobs are locked by the worker pool's ID (graphile-worker 0.16 on), queues by a worker's: both are held.
    events.on("pool:create", ({ workerPool }) => this.own(workerPool.id));
    events.on("worker:create", ({ worker }) => this.own(worker.workerId));
  }

  private own(id: string): void {
    this.workers.add(id);
    void this.connected().then((client) => client && this.hold(client, id));
  }

  /** Starts sweeping; the connection opens meanwhile (a start does not wait for it: the grace covers it). */
  start(): void {
    void this.connected();
    this.timer = setInterval(() => void this.sweep(), this.timing.sweepMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.connecting;
    // Not awaited: the server drops the locks with the connection, and a stop need not wait for its goodbye.
    this.client?.end().catch(() => {});
    this.client = undefined;
  }

  /** The liveness connection, opened again (with every lock taken again) after it was lost. */
  private connected(): Promise<pg.Client | undefined> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<pg.Client | undefined> {
    if (this.closed) return undefined;
    const client = new pg.Client({ connectionString: this.url, application_name: "exchange-kit-sandbox" });
    client.on("error", () => {
      if (this.client === client) this.client = undefined;
    });
    try {
      await client.connect();
      for (const worker of this.workers) await this.hold(client, worker);
    } catch {
      client.end().catch(() => {});
      // The database is down: the next sweep tries again.
      return undefined;
    }
    this.client = client;
    return client;
  }

  private query(client: pg.Client, text: string, values: unknown[]): Promise<pg.QueryResult> {
    const result = this.turn.then(() => client.query(text, values));
    this.turn = result.catch(() => {});
    return result;
  }

  private async hold(client: pg.Client, worker: string): Promise<void> {
    await this.query(client, "SELECT pg_advisory_lock($1, hashtext($2))", [LIVENESS_LOCK, worker]).catch(() => {});
  }

  /** Hands back the jobs of workers whose replica is gone. */
  private async sweep(): Promise<void> {
    const client = await this.connected();
    if (!client || this.closed) return;
    try {
      const locked = await this.query(
        client,
        `SELECT DISTINCT locked_by FROM "${this.schema}".jobs WHERE locked_by IS NOT NULL AND locked_at < now() - $1 * interval '1 second'`,
        [this.timing.graceSeconds],
      );
      for (const { locked_by: worker } of locked.rows as Array<{ locked_by: string }>) {
        if (!this.workers.has(worker)) await this.reclaim(client, worker);
      }
    } catch (error) {
      this.logger.warn(`job queue: looking for jobs of stopped replicas failed (${(error as Error).message})`);
    }
  }

  private async reclaim(client: pg.Client, worker: string): Promise<void> {
    const found = await this.query(client, "SELECT pg_try_advisory_lock($1, hashtext($2)) AS gone", [
      LIVENESS_LOCK,
      worker,
    ]);
    if (found.rows[0]?.gone !== true) return;
    try {
      await this.query(client, `SELECT "${this.schema}".force_unlock_workers(ARRAY[$1]::text[])`, [worker]);
      this.logger.warn(`job queue: worker ${worker} stopped with jobs in hand; they are queued again`);
    } finally {
      await this.query(client, "SELECT pg_advisory_unlock($1, hashtext($2))", [LIVENESS_LOCK, worker]);
    }
  }
}
