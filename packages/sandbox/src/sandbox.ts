// createSandbox: wires the store (in memory, or a SQLite file), the clock, webhook delivery, automatic
// progress and the HTTP server, and returns a handle to drive and stop it.
import { randomInt } from "node:crypto";
import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import type { Server } from "node:http";
import { DEFAULT_QUOTATION_TTL_SECONDS } from "./domain/catalog.js";
import type { SandboxClock } from "./domain/clock.js";
import { SandboxDomain } from "./domain/sandbox-domain.js";
import { StoredOrganizationState } from "./domain/organization-state.js";
import { Chaos, type ChaosOptions } from "./faults/chaos.js";
import { StoreFaultPlan } from "./faults/fault-plan.js";
import { RequestFaults } from "./faults/request-faults.js";
import { WebhookFaults } from "./faults/webhook-faults.js";
import { createApiServer, type ServerOptions } from "./http/server.js";
import { loadTracing } from "./tracing/tracing.js";
import { adminIntercept } from "./organizations/admin-api.js";
import { readinessIntercept } from "./control/readiness.js";
import { adminTokenProblem } from "./organizations/admin-token.js";
import { type OrganizationCredentials, OrganizationDirectory } from "./organizations/directory.js";
import { keyLookups } from "./organizations/key-lookups.js";
import { checkTimeouts, DEFAULT_TIMEOUTS } from "./http/timeouts.js";
import { type Logger, toLogger, type SandboxLogger } from "./logger.js";
import { buildRoutes } from "./routes.js";
import { requestLogOptions, type SandboxRequestLogOptions } from "./request-log/options.js";
import { RequestLog, type RequestLogOptions } from "./request-log/request-log.js";
import type { OrganizationsByKey } from "./http/auth.js";
import type { Organization } from "./http/route.js";
import { createDashboard, type Dashboard } from "./dashboard/dashboard.js";
import type { Durability } from "./store/database.js";
import type { StorageBackoff } from "./store/storage-recovery.js";
import { isCachedKind, isOutageLine, Store } from "./store/store.js";
import { DatabaseError } from "./store/start-errors.js";
import { displayUrl } from "./store/postgres/pg-open.js";
import { ChangeFeed, changeChannelOf } from "./store/postgres/change-feed.js";
import type { EventRow } from "./store/records.js";
import { DEFAULT_RETRY, WebhookDelivery, type RetryPolicy } from "./webhooks/delivery.js";
import type { DeferredWork } from "./schedule/deferred-work.js";
import { QueueWork, type QueueWorkOptions, queueSchemaOf } from "./schedule/queue-work.js";
import { TimerWork } from "./schedule/timer-work.js";
import { EventLog } from "./webhooks/events.js";
import { webhookTargetPolicy } from "./webhooks/webhook-targets.js";

export interface SandboxOrganizationOptions {
  name?: string;
  apiKey: string;
  apiSecret: string;
}

export interface SandboxOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /**
   * A SQLite file (e.g. "./sandbox.db") to keep state across restarts; in memory when absent. A request is
   * answered only after its writes are committed to the file. One file serves one sandbox at a time. The file is
   * checked at start (a sandbox's, by its application_id; PRAGMA quick_check): createSandbox rejects with a
   * DatabaseError naming it when it cannot be used, and leaves another application's file untouched.
   *
   * Or a PostgreSQL URL (`postgres://user:password@host:5432/name`): the same behaviour on a server's database,
   * so state outlives the machine the sandbox runs on. One database (or schema, by `search_path`) serves one
   * sandbox at a time for now; the start is refused with a DatabaseError (one line, no password) for a wrong
   * password, an unreachable server, a missing database, another application's tables or a newer schema.
   * While the server is down, requests are answered 503 SYS_SERVICE_UNAVAILABLE.
   */
  db?: string;
  /**
   * With `db`: "normal" (default) keeps every answered write through a crash of the process (kill -9);
   * "full" also through a power loss, at one fsync per write request.
   */
  dbDurability?: Durability;
  /**
   * Organizations and their credentials, registered in the database at start (added, or updated by API key: a
   * key the database holds with another secret takes the secret given here, and a warning says so). When
   * absent: the database's organizations, or one with a generated key pair on a new database. Every
   * organization of the database is accepted, including those added while it runs (`adminToken`), by every
   * sandbox on that database.
   */
  organizations?: SandboxOrganizationOptions[];
  /**
   * Turns on the admin API (POST/GET /_sandbox/admin/organizations) for callers that send this token as
   * `Authorization: Bearer <token>`: organizations can then be added while the sandbox runs. At least 16
   * characters. Off when absent (the admin API answers 403).
   */
  adminToken?: string;
  /**
   * Delay before KYC, bank verification, payins, payouts and EDD take their next step on their own. Default 200 ms;
   * 0 = right after the response; false = never (drive them with the control API).
   */
  autoProgressMs?: number | false;
  /** Validity of quotations (sandbox clock). Default 300 s. */
  quotationTtlSeconds?: number;
  /**
   * Webhook targets a sandbox listening beyond loopback still delivers to though they are internal (loopback,
   * private, link-local): `host` or `host:port` as the URL names it (`"127.0.0.1:4000"`, `"receiver.internal"`).
   * On loopback every target is delivered to and this is not needed.
   */
  webhookAllowedTargets?: string[];
  /** How long a webhook receiver has to answer 2xx. Default 3000 ms. */
  webhookTimeoutMs?: number;
  /** Webhook retry schedule; default 6 attempts, waiting 0.5 s, 1 s, 2 s, 4 s, 8 s. */
  webhookRetry?: Partial<RetryPolicy>;
  /** Deliver every event twice (receivers must deduplicate on id + event). Default false. */
  duplicateDeliveries?: boolean;
  /** Largest accepted request body. Default 1 MiB; larger bodies get 413. */
  bodyLimitBytes?: number;
  /** Idle time after a response before a keep-alive connection is closed. Default 5000 ms (Node's). */
  keepAliveTimeoutMs?: number;
  /**
   * Time a client has to send a request's complete headers; a connection that sends nothing for this long is
   * closed too. Default 60000 ms (Node's headers timeout).
   */
  headersTimeoutMs?: number;
  /** Time a client has to send a whole request, body included; at least `headersTimeoutMs`. Default 300000 ms (Node's). */
  requestTimeoutMs?: number;
  /** Where log lines go (requests, deliveries, unexpected errors); silent when absent. `console` fits. */
  logger?: SandboxLogger;
  /**
   * Bounds of the request log (GET /_sandbox/requests): entries kept per organization (default 10,000; the oldest
   * are dropped) and bytes kept of each body (default 8192).
   */
  requestLog?: SandboxRequestLogOptions;
  /**
   * This process's name among replicas on one PostgreSQL database, in each request-log entry it answers
   * (`replica`). Default on PostgreSQL: the host name and process ID, e.g. `"build-3:4121"`; on SQLite, none (null).
   */
  replica?: string;
  /**
   * Serve the dashboard at /_dashboard/ (default true): records, events and deliveries, the request log and the
   * control actions in a browser, opened with each organization's link (`dashboard` of the handle).
   */
  dashboard?: boolean;
  /**
   * Chaos mode for soak tests: a random fault on `rate` of the requests to the spec's operations, and of the
   * webhook events (`{ rate: 0.05, seed: 42 }`: 5 %), picked by a generator seeded with `seed` (random when
   * absent; the handle's `chaos.seed` tells it), so a run can be replayed. Off when absent.
   */
  chaos?: Partial<ChaosOptions> & Pick<ChaosOptions, "rate">;
}

/**
 * An organization's dashboard link: its URL carries a random token (in the fragment, `/_dashboard/#token=…`) that
 * opens sessions for that organization only, on every replica of the database, for 7 days.
 */
export interface SandboxDashboardLink {
  organizationId: string;
  name: string;
  apiKey: string;
  url: string;
}

export interface SandboxOrganization {
  /** The organization's ID (derived from its API key, so it is the same on every replica and across restarts). */
  id: string;
  name: string;
  apiKey: string;
  apiSecret: string;
}

/**
 * The sandbox clocks: each organization has its own (as POST /_sandbox/clock/advance moves only the caller's).
 *
 * @example
 * await sandbox.clock.advance(301, sandbox.organizations[0].id); // that organization's quotations have expired
 * await sandbox.clock.now(sandbox.organizations[1].id); // the other organization's time has not moved
 */
export interface SandboxClockHandle {
  /** The organization's sandbox time; without an organization ID, the first organization's. */
  now(organizationId?: string): Promise<Date>;
  /**
   * Moves the organization's sandbox time forward by `seconds` (negative: back) and returns its new time;
   * without an organization ID, every organization's clock moves by `seconds`, and the first one's time is
   * returned. Rejects with a TypeError for an ID that is not one of `organizations`.
   */
  advance(seconds: number, organizationId?: string): Promise<Date>;
}

/** One webhook event and its deliveries, as kept in the event log. */
export interface SandboxEvent {
  id: string;
  organizationId: string;
  createdAt: string;
  body: EventRow["body"];
  deliveries: EventRow["deliveries"];
}

export interface Sandbox {
  /** Base URL, e.g. http://127.0.0.1:4020 */
  url: string;
  port: number;
  host: string;
  /** The organizations it started with (added ones are listed by GET /_sandbox/admin/organizations). */
  organizations: SandboxOrganization[];
  clock: SandboxClockHandle;
  /** The event log (every organization), oldest first. */
  events(): Promise<SandboxEvent[]>;
  /** Resolves once no webhook delivery is pending (retries included). */
  deliveriesSettled(): Promise<void>;
  /**
   * A dashboard link for every organization of the database (those added while a sandbox ran too), made at this
   * start; links made earlier keep working until they expire. Empty with `dashboard: false`.
   */
  dashboard: SandboxDashboardLink[];
  /** Stops the server, timers and deliveries, and closes the database (releasing the file). */
  close(): Promise<void>;
  /** Chaos mode's rate and seed (the seed replays the run); undefined when chaos mode is off. */
  chaos: { rate: number; seed: number } | undefined;
}

/** The handle's clocks: one organization's, or (advance without an ID) every organization's of the database. */
function clockHandle(
  domain: SandboxDomain,
  directory: OrganizationDirectory,
  organizations: readonly SandboxOrganization[],
): SandboxClockHandle {
  const known = async (id: string) => {
    if (!(await directory.byId(id))) throw new TypeError(`no organization with the ID ${id}`);
    return id;
  };
  const first = organizations[0]!.id;
  return {
    now: async (organizationId) => (await domain.clock(await known(organizationId ?? first))).now(),
    advance: async (seconds, organizationId) => {
      const ids =
        organizationId === undefined ? (await directory.list()).map((o) => o.id) : [await known(organizationId)];
      // One transaction: every clock moves, or none.
      await domain.store.transaction(async () => {
        const clocks: SandboxClock[] = [];
        for (const id of ids) clocks.push(await domain.clock(id));
        if (!clocks.every((c) => c.canAdvance(seconds)))
          throw new RangeError("the sandbox clock stays between 1970-01-01 and 9999-12-31");
        for (const clock of clocks) await clock.advance(seconds);
      });
      return (await domain.clock(ids[0]!)).now();
    },
  };
}

/** The options' organizations, checked (both credentials, no key twice) and named; none when absent. */
function configuredOrganizations(
  configured: readonly SandboxOrganizationOptions[] | undefined,
): OrganizationCredentials[] {
  const organizations = (configured ?? []).map((o, i) => {
    if (!o.apiKey || !o.apiSecret) throw new TypeError("every organization needs apiKey and apiSecret");
    return { name: o.name ?? `Organization ${i + 1}`, apiKey: o.apiKey, apiSecret: o.apiSecret };
  });
  const keys = new Set<string>();
  for (const org of organizations) {
    if (keys.has(org.apiKey)) throw new TypeError(`duplicate apiKey ${org.apiKey}`);
    keys.add(org.apiKey);
  }
  return organizations;
}

/** Registers the options' organizations in the store (see `organizations`), warning of each secret replaced. */
async function registerOrganizations(
  directory: OrganizationDirectory,
  configured: readonly OrganizationCredentials[],
  logger: Logger,
): Promise<SandboxOrganization[]> {
  const { organizations, replacedSecret } = await directory.registerOrReuse(configured, "Sandbox organization");
  for (const org of replacedSecret)
    logger.warn(`organization ${org.id} (${org.name}): the API secret given at start replaces the one stored`);
  return organizations.map(({ id, name, apiKey, apiSecret }) => ({ id, name, apiKey, apiSecret }));
}

/** Not public API: the benchmarks seed the store directly (100k rows through HTTP would take minutes). */
export interface SandboxInternals {
  /** Runs on the opened store, once the organizations are registered, before the server starts. */
  prepare?: (store: Store, organizations: readonly SandboxOrganization[]) => void | Promise<void>;
  /** How scheduled work that fails for want of disk is retried (tests shorten the waits). */
  storageBackoff?: StorageBackoff;
  /** On PostgreSQL: how often a replica looks for due jobs (default 1000 ms), and for jobs a dead replica left locked. */
  queue?: { pollMs?: number; concurrency?: number; livenessSweepMs?: number; livenessGraceSeconds?: number };
  /**
   * On PostgreSQL with the dashboard: tell other replicas' dashboards what this one commits, and hear theirs
   * (default true). The behaviour suite turns it off for its single-replica sandboxes: it is a connection each.
   */
  changeFeed?: boolean;
}

/** The server's connection timeouts: the options', else Node's; checked before anything opens. */
function timeoutsOf(options: SandboxOptions) {
  return checkTimeouts({
    keepAliveMs: options.keepAliveTimeoutMs ?? DEFAULT_TIMEOUTS.keepAliveMs,
    headersMs: options.headersTimeoutMs ?? DEFAULT_TIMEOUTS.headersMs,
    requestMs: options.requestTimeoutMs ?? DEFAULT_TIMEOUTS.requestMs,
  });
}

/**
 * The store (in memory or the `db` file) with the organizations registered, prepared by the internals' hook;
 * closed again when either throws.
 */
async function openStore(
  options: SandboxOptions,
  internals: SandboxInternals,
  configured: readonly OrganizationCredentials[],
  logger: Logger,
): Promise<{ store: Store; directory: OrganizationDirectory; organizations: SandboxOrganization[] }> {
  const store = await Store.open({
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
async function deferredWork(
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
function outagesToStore(logger: Logger, store: Store): Logger {
  const pass = (line: (text: string) => void) => (text: string) => {
    if (isOutageLine(text)) store.databaseFailed(text);
    else line(text);
  };
  return { enabled: logger.enabled, info: logger.info, warn: pass(logger.warn), error: pass(logger.error) };
}

/** The queue's timings the internals set (the rest keep their defaults). */
function queueTiming(
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

/** Over the store: every organization's settings and clock, webhook delivery, the event log and the domain. */
function wireDomain(
  store: Store,
  work: DeferredWork,
  options: SandboxOptions,
  directory: OrganizationDirectory,
  logger: Logger,
  chaos: Chaos | undefined,
): { domain: SandboxDomain; delivery: WebhookDelivery; faults: RequestFaults } {
  // The options are every organization's starting settings; the control API changes one organization's.
  const state = new StoredOrganizationState(
    {
      autoProgressMs: options.autoProgressMs ?? 200,
      duplicateDeliveries: options.duplicateDeliveries ?? false,
      quotationTtlSeconds: options.quotationTtlSeconds ?? DEFAULT_QUOTATION_TTL_SECONDS,
    },
    { get: async (key) => await store.getMeta(key), set: async (key, value) => await store.setMeta(key, value) },
  );
  const delivery = new WebhookDelivery({
    store,
    work,
    credentialsOf: async (org) => await directory.byId(org),
    timeoutMs: options.webhookTimeoutMs ?? 3000,
    retry: { ...DEFAULT_RETRY, ...options.webhookRetry },
    logger,
    targets: webhookTargetPolicy(options.host ?? "127.0.0.1", options.webhookAllowedTargets),
  });
  const plan = new StoreFaultPlan(store);
  const events = new EventLog(store, state, delivery, new WebhookFaults(plan, chaos));
  const domain = new SandboxDomain(
    store,
    state,
    events,
    (error) =>
      logger.error(
        `automatic progress failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      ),
    plan,
    work,
  );
  return { domain, delivery, faults: new RequestFaults(plan, chaos) };
}

/**
 * On PostgreSQL with the dashboard: what other replicas commit reaches this replica's live views and its cache
 * (store/read-cache.ts, used only while the feed listens), and what this one commits reaches theirs.
 */
async function changeFeed(
  store: Store,
  db: string | undefined,
  requestLog: RequestLog,
): Promise<ChangeFeed | undefined> {
  if (store.engine !== "postgres" || db === undefined) return undefined;
  const { name } = (await store.statement("SELECT current_schema() AS name").get()) as { name: string };
  const feed = new ChangeFeed(
    db,
    changeChannelOf(name),
    (kind, org) => (kind === "requests" ? requestLog.announce(org) : store.announce(kind, org)),
    (hearing) => store.cache.setLive(hearing),
  );
  store.onChange((kind, org) => feed.publish(kind, org, isCachedKind(kind)));
  requestLog.subscribe((org) => feed.publish("requests", org));
  feed.start();
  return feed;
}

/** The URL of a server listening on host and port (an IPv6 host in brackets). */
function baseUrl(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** Starts running scheduled work; a queue that cannot start (its schema, its connection) refuses the start. */
async function startWork(work: DeferredWork, db: string | undefined, store: Store): Promise<void> {
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

/** Resolves once the server listens; when it cannot, runs `release` and rejects with the server's error. */
function listen(server: Server, port: number, host: string, release: () => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => {
      release();
      reject(error);
    };
    server.once("error", failed);
    server.listen(port, host, () => {
      server.off("error", failed);
      resolve();
    });
  });
}

/**
 * This process's name in the request log: the option's; on PostgreSQL by default host and process ID; on SQLite
 * none (one process holds the database).
 *
 * @example
 * replicaName(undefined, "postgres"); // "build-3:4121"
 */
function replicaName(option: string | undefined, engine: "sqlite" | "postgres"): string | null {
  if (option !== undefined) return option;
  return engine === "postgres" ? `${hostname()}:${process.pid}` : null;
}

/** On PostgreSQL, how long request-log entries gather before a batch is kept (see RequestLog). */
const POSTGRES_LOG_BATCH_MS = 10;

/** The request log, kept in the store's database. */
function openRequestLog(
  store: Store,
  byKey: OrganizationsByKey<Organization>,
  options: RequestLogOptions,
  logger: Logger,
  replica: string | null,
): RequestLog {
  const batchDelayMs = store.engine === "postgres" ? POSTGRES_LOG_BATCH_MS : 0;
  const keep = async <R>(work: () => Promise<R>) => await store.transaction(work, { isolation: "read-committed" });
  return new RequestLog(store.requestLog, keep, byKey, options, logger, batchDelayMs, replica);
}

/**
 * A new dashboard link of every organization of the database, made at start. When they cannot be written (a full
 * disk), the sandbox still starts, without links, and says so: `exchange-kit org link` makes one later.
 */
async function dashboardLinks(
  dashboard: Dashboard | undefined,
  directory: OrganizationDirectory,
  url: string,
  logger: Logger,
): Promise<SandboxDashboardLink[]> {
  if (!dashboard) return [];
  try {
    const links: SandboxDashboardLink[] = [];
    for (const o of await directory.list())
      links.push({
        organizationId: o.id,
        name: o.name,
        apiKey: o.apiKey,
        url: `${url}${await dashboard.newLinkPath(o.id)}`,
      });
    return links;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    logger.warn(`no dashboard links this start (${reason}): exchange-kit org link makes one once it can be written`);
    return [];
  }
}

/** The handle of a listening sandbox: where it listens, its organizations and clocks, its events, and close. */
function sandboxHandle(
  where: { url: string; port: number; host: string },
  organizations: SandboxOrganization[],
  parts: {
    store: Store;
    directory: OrganizationDirectory;
    work: DeferredWork;
    feed: ChangeFeed | undefined;
    domain: SandboxDomain;
    delivery: WebhookDelivery;
    server: Server;
    requestLog: RequestLog;
    dashboard: Dashboard | undefined;
    links: SandboxDashboardLink[];
    chaos: Chaos | undefined;
  },
): Sandbox {
  const { store, directory, work, feed, domain, delivery, server, requestLog, dashboard, links, chaos } = parts;
  let closing: Promise<void> | undefined;
  return {
    ...where,
    organizations,
    clock: clockHandle(domain, directory, organizations),
    events: async () =>
      (await store.events.where("TRUE", [], "created_at, seq")).map((e) => ({
        id: e.id,
        organizationId: e.org,
        createdAt: e.created_at,
        body: e.body,
        deliveries: e.deliveries,
      })),
    deliveriesSettled: () => delivery.idle(),
    dashboard: links,
    chaos: chaos && { rate: chaos.rate, seed: chaos.seed },
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        dashboard?.close();
        delivery.close();
        server.close(() => {
          // The queue stops first: a job it is running finishes against the open store.
          void Promise.allSettled([work.close(), feed?.close()])
            .then(() => requestLog.close())
            .finally(() => store.close().finally(resolve));
        });
        server.closeAllConnections();
      })),
  };
}

type Intercept = NonNullable<ServerOptions<unknown>["intercept"]>;

/** The first of `intercepts` that takes a request outside the API: the readiness probe, the admin API, the dashboard. */
function firstTaker(...intercepts: Array<Intercept | undefined>): Intercept {
  return (req, res, target) => intercepts.some((take) => take?.(req, res, target) ?? false);
}

/**
 * Starts a sandbox: opens its store, listens, resumes the automatic progress a `db` file has planned, and answers
 * the handle. Rejects with a TypeError for a bad option and a DatabaseError for a `db` file it cannot use.
 *
 * @example
 * const sandbox = await createSandbox({ organizations: [{ apiKey: "key_acme", apiSecret: "secret_acme" }] });
 * // ... point a client at sandbox.url ...
 * await sandbox.close();
 */
export async function createSandbox(options: SandboxOptions = {}, internals: SandboxInternals = {}): Promise<Sandbox> {
  const host = options.host ?? "127.0.0.1";
  // Checked before the store opens, so a bad option leaves nothing to close.
  const timeouts = timeoutsOf(options);
  const logOptions = requestLogOptions(options.requestLog);
  const chaos = options.chaos && new Chaos({ ...options.chaos, seed: options.chaos.seed ?? randomInt(2 ** 32) });
  const logger = toLogger(options.logger);
  const configured = configuredOrganizations(options.organizations);
  const problem = adminTokenProblem(options.adminToken);
  if (problem) throw new TypeError(problem);
  // Before anything is served: requests are traced from the first one when the process has OpenTelemetry.
  await loadTracing();
  const { store, directory, organizations } = await openStore(options, internals, configured, logger);
  const work = await deferredWork(store, options, internals, logger);
  const { domain, delivery, faults } = wireDomain(store, work, options, directory, logger, chaos);
  const byKey = keyLookups(async (apiKey) => await directory.byKey(apiKey));
  const requestLog = openRequestLog(store, byKey.log, logOptions, logger, replicaName(options.replica, store.engine));
  let server: Server | undefined;
  const port = () => (server!.address() as AddressInfo).port;
  const dashboard =
    options.dashboard === false
      ? undefined
      : createDashboard({ domain, requestLog, logger, organizations: { get: async (id) => await directory.byId(id) } });
  const admin = adminIntercept({
    directory,
    adminToken: options.adminToken,
    dashboardLinkPathOf: dashboard && (async (org) => await dashboard.newLinkPath(org)),
    replicaUrl: () => baseUrl(host, port()),
    logger,
  });
  server = createApiServer({
    routes: buildRoutes(requestLog),
    onAnswered: async (answered) => await requestLog.record(answered),
    intercept: firstTaker(readinessIntercept(store), admin, dashboard?.intercept.bind(dashboard)),
    transaction: async (work, onlyReads) => await store.transaction(work, { onlyReads }),
    freshen: async () => await store.freshenCache(),
    organizationsByKey: byKey.auth,
    domain,
    bodyLimitBytes: options.bodyLimitBytes ?? 1024 * 1024,
    logger,
    timeouts,
    faults,
  });
  await startWork(work, options.db, store);
  await listen(server, options.port ?? 0, host, () => {
    void work.close().finally(() => store.close());
  });
  // Timers were lost with the last process; a queue kept its jobs.
  if (!work.durable) await domain.resumePlans();
  const url = baseUrl(host, port());
  // No "listening" line of its own: whoever started it has `url` and announces it (exchange-kit sandbox prints its
  // ready line; with --verbose a line here too made two).
  if (chaos) logger.info(`chaos mode: a fault on ${chaos.rate * 100} % of requests and events, seed ${chaos.seed}`);
  const feed =
    dashboard && internals.changeFeed !== false ? await changeFeed(store, options.db, requestLog) : undefined;
  const links = await dashboardLinks(dashboard, directory, url, logger);
  const parts = { store, directory, work, feed, domain, delivery, server, requestLog, dashboard, links, chaos };
  return sandboxHandle({ url, port: port(), host }, organizations, parts);
}
