import { hostname } from "node:os";
import type { ChaosOptions } from "../faults/chaos.js";
import type { OrganizationCredentials } from "../organizations/directory.js";
import { checkTimeouts, DEFAULT_TIMEOUTS } from "../http/timeouts.js";
import type { SandboxLogger } from "../logger.js";
import type { SandboxRequestLogOptions } from "../request-log/options.js";
import type { Durability } from "../store/database.js";
import type { StorageBackoff } from "../store/storage-recovery.js";
import type { Store } from "../store/store.js";
import type { EventRow } from "../records/rows.js";
import type { RetryPolicy } from "../webhooks/delivery.js";

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
/** The options' organizations, checked (both credentials, no key twice) and named; none when absent. */
export function configuredOrganizations(
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
/** The server's connection timeouts: the options', else Node's; checked before anything opens. */
export function timeoutsOf(options: SandboxOptions) {
  return checkTimeouts({
    keepAliveMs: options.keepAliveTimeoutMs ?? DEFAULT_TIMEOUTS.keepAliveMs,
    headersMs: options.headersTimeoutMs ?? DEFAULT_TIMEOUTS.headersMs,
    requestMs: options.requestTimeoutMs ?? DEFAULT_TIMEOUTS.requestMs,
  });
}
/**
 * This process's name in the request log: the option's; on PostgreSQL by default host and process ID; on SQLite
 * none (one process holds the database).
 *
 * @example
 * replicaName(undefined, "postgres"); // "build-3:4121"
 */
export function replicaName(option: string | undefined, engine: "sqlite" | "postgres"): string | null {
  if (option !== undefined) return option;
  return engine === "postgres" ? `${hostname()}:${process.pid}` : null;
}
/** The URL of a server listening on host and port (an IPv6 host in brackets). */
export function baseUrl(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}
