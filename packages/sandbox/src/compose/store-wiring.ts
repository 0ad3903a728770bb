import { FAULT_TABLES_SQL } from "../faults/fault-tables.js";
import { REQUEST_LOG_TABLE_SQL } from "../request-log/log-table.js";
import { type OrganizationCredentials, OrganizationDirectory } from "../organizations/directory.js";
import type { Logger } from "../logger.js";
import { isOutageLine, Store } from "../store/store.js";
import { DatabaseError } from "../store/start-errors.js";
import { displayUrl } from "../store/postgres/pg-open.js";
import type { DeferredWork } from "../domain/deferred-work.js";
import { QueueWork, type QueueWorkOptions, queueSchemaOf } from "../schedule/queue-work.js";
import { TimerWork } from "../schedule/timer-work.js";
import type { SandboxInternals, SandboxOptions, SandboxOrganization } from "./options.js";

/** Registers the options' organizations in the store (see `organizations`), warning of each secret replaced. */
export async function registerOrganizations(
  directory: OrganizationDirectory,
  configured: readonly OrganizationCredentials[],
  logger: Logger,
): Promise<SandboxOrganization[]> {
  const { organizations, replacedSecret } = await directory.registerOrReuse(configured, "Sandbox organization");
  for (const org of replacedSecret)
    logger.warn(`organization ${org.id} (${org.name}): the API secret given at start replaces the one stored`);
  return organizations.map(({ id, name, apiKey, apiSecret }) => ({ id, name, apiKey, apiSecret }));
}
/**
 * The features' own tables, created when the store opens (in this order): the request log's and the fault plan's.
 * A feature with a table adds its statements here.
 */
export const FEATURE_SCHEMA: readonly string[] = [REQUEST_LOG_TABLE_SQL, FAULT_TABLES_SQL];

/**
 * The store (in memory or the `db` file) with the organizations registered, prepared by the internals' hook;
 * closed again when either throws.
 */
export async function openStore(
  options: SandboxOptions,
  internals: SandboxInternals,
  configured: readonly OrganizationCredentials[],
  logger: Logger,
): Promise<{ store: Store; directory: OrganizationDirectory; organizations: SandboxOrganization[] }> {
  const store = await Store.open({
    featureSchema: FEATURE_SCHEMA,
    path: options.db,
    durability: options.dbDurability,
    logger,
    ...(internals.storageBackoff ? { storageBackoff: internals.storageBackoff } : {}),
  });
  try {
    const directory = new OrganizationDirectory(store);
    const organizations = await registerOrganizations(directory, configured, logger);
    await internals.prepare?.(store, organizations);
    return { store, directory, organizations };
  } catch (error) {
    await store.close();
    throw error;
  }
}
/**
 * Where scheduled work waits: this process's timers on SQLite; on PostgreSQL, a job queue in the database (its
 * own schema beside the sandbox's), shared by the replicas.
 */
export async function deferredWork(
  store: Store,
  options: SandboxOptions,
  internals: SandboxInternals,
  logger: Logger,
): Promise<DeferredWork> {
  if (store.engine !== "postgres" || options.db === undefined) return new TimerWork((run) => store.afterCommit(run));
  const { name } = (await store.statement("SELECT current_schema() AS name").get()) as { name: string };
  return new QueueWork({
    url: options.db,
    statement: (sql) => store.statement(sql),
    afterCommit: (callback) => store.afterCommit(callback),
    schema: queueSchemaOf(name),
    logger: outagesToStore(logger, store),
    ...queueTiming(internals.queue),
  });
}
/**
 * The job queue's log lines, less those that only say the database does not answer: the store says that once
 * (one warning line when it drops, one info line when it is back), not each of the queue's connections and
 * retries.
 */
export function outagesToStore(logger: Logger, store: Store): Logger {
  const pass = (line: (text: string) => void) => (text: string) => {
    if (isOutageLine(text)) store.databaseFailed(text);
    else line(text);
  };
  return { enabled: logger.enabled, info: logger.info, warn: pass(logger.warn), error: pass(logger.error) };
}
/** The queue's timings the internals set (the rest keep their defaults). */
export function queueTiming(
  queue: SandboxInternals["queue"],
): Pick<QueueWorkOptions, "pollIntervalMs" | "concurrency" | "liveness"> {
  const liveness = {
    ...(queue?.livenessSweepMs === undefined ? {} : { sweepMs: queue.livenessSweepMs }),
    ...(queue?.livenessGraceSeconds === undefined ? {} : { graceSeconds: queue.livenessGraceSeconds }),
  };
  return {
    ...(queue?.pollMs === undefined ? {} : { pollIntervalMs: queue.pollMs }),
    ...(queue?.concurrency === undefined ? {} : { concurrency: queue.concurrency }),
    liveness,
  };
}
/** Starts running scheduled work; a queue that cannot start (its schema, its connection) refuses the start. */
export async function startWork(work: DeferredWork, db: string | undefined, store: Store): Promise<void> {
  try {
    await work.start();
  } catch (error) {
    await work.close();
    await store.close();
    const where = displayUrl(db ?? "");
    throw new DatabaseError(`${where}: the job queue could not start (${(error as Error).message}).`, {
      file: where,
      problem: "cannot-open",
      cause: error,
    });
  }
}
