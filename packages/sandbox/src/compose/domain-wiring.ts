import { DEFAULT_QUOTATION_TTL_SECONDS } from "../domain/catalog.js";
import { SandboxDomain } from "../domain/sandbox-domain.js";
import { StoredOrganizationState } from "../domain/organization-state.js";
import type { Chaos } from "../faults/chaos.js";
import { type FaultPlan, StoreFaultPlan } from "../faults/fault-plan.js";
import { RequestFaults } from "../faults/request-faults.js";
import { WebhookFaults } from "../faults/webhook-faults.js";
import type { OrganizationDirectory } from "../organizations/directory.js";
import type { Logger } from "../logger.js";
import { createDashboard, type Dashboard } from "../dashboard/dashboard.js";
import { dashboardReader } from "../request-log/dashboard-reader.js";
import { RequestLogTable } from "../request-log/log-table.js";
import { RequestLog, type RequestLogOptions } from "../request-log/request-log.js";
import type { OrganizationsByKey } from "../http/auth.js";
import type { Organization } from "../api/route.js";
import { isCachedKind, type Store } from "../store/store.js";
import { ChangeFeed, changeChannelOf } from "../store/postgres/change-feed.js";
import { DEFAULT_RETRY, WebhookDelivery } from "../webhooks/delivery.js";
import type { DeferredWork } from "../domain/deferred-work.js";
import { EventLog } from "../webhooks/events.js";
import { stepTracing } from "../tracing/tracing.js";
import { webhookTargetPolicy } from "../webhooks/webhook-targets.js";
import type { SandboxOptions } from "./options.js";

/** Over the store: every organization's settings and clock, webhook delivery, the event log and the domain. */
export function wireDomain(
  store: Store,
  work: DeferredWork,
  options: SandboxOptions,
  directory: OrganizationDirectory,
  logger: Logger,
  chaos: Chaos | undefined,
): { domain: SandboxDomain; delivery: WebhookDelivery; plan: FaultPlan; faults: RequestFaults } {
  // The options are every organization's starting settings; the control API changes one organization's.
  const state = new StoredOrganizationState(
    {
      autoProgressMs: options.autoProgressMs ?? 200,
      duplicateDeliveries: options.duplicateDeliveries ?? false,
      quotationTtlSeconds: options.quotationTtlSeconds ?? DEFAULT_QUOTATION_TTL_SECONDS,
    },
    { get: (key) => store.getMeta(key), set: async (key, value) => await store.setMeta(key, value) },
  );
  const delivery = new WebhookDelivery({
    store,
    work,
    credentialsOf: (org) => directory.byId(org),
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
    work,
    stepTracing,
  );
  return { domain, delivery, plan, faults: new RequestFaults(plan, chaos) };
}
/**
 * On PostgreSQL with the dashboard: what other replicas commit reaches this replica's live views and its cache
 * (store/read-cache.ts, used only while the feed listens), and what this one commits reaches theirs.
 */
export async function changeFeed(
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
/** On PostgreSQL, how long request-log entries gather before a batch is kept (see RequestLog). */
export const POSTGRES_LOG_BATCH_MS = 10;
/** The request log, kept in the store's database. */
export function openRequestLog(
  store: Store,
  byKey: OrganizationsByKey<Organization>,
  options: RequestLogOptions,
  logger: Logger,
  replica: string | null,
): RequestLog {
  const batchDelayMs = store.engine === "postgres" ? POSTGRES_LOG_BATCH_MS : 0;
  const keep = async <R>(work: () => Promise<R>) => await store.transaction(work, { isolation: "read-committed" });
  const table = new RequestLogTable({ prepare: (sql) => store.statement(sql) });
  return new RequestLog(table, keep, byKey, options, logger, batchDelayMs, replica);
}

/** The dashboard over the domain and the request log; none with `dashboard: false`. */
export function openDashboard(
  options: SandboxOptions,
  domain: SandboxDomain,
  requestLog: RequestLog,
  directory: OrganizationDirectory,
  logger: Logger,
): Dashboard | undefined {
  if (options.dashboard === false) return undefined;
  const organizations = { get: async (id: string) => await directory.byId(id) };
  return createDashboard({ domain, requestLog: dashboardReader(requestLog), logger, organizations });
}
