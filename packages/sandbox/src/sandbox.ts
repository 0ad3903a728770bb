// The composition root: createSandbox checks the options (compose/options.ts), opens the store with the
// organizations registered and picks where scheduled work waits (compose/store-wiring.ts), wires the layers over
// the store (compose/domain-wiring.ts), starts the HTTP server with the features plugged in, and answers the handle
// (compose/handle.ts). Each layer is made here and handed to the next; none reaches for another itself.
import { randomInt } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { Chaos } from "./faults/chaos.js";
import { createApiServer } from "./http/server.js";
import { loadTracing, traceRequest } from "./tracing/tracing.js";
import { adminIntercept } from "./organizations/admin-api.js";
import { readinessIntercept } from "./control/readiness.js";
import { adminTokenProblem } from "./organizations/admin-token.js";
import { keyLookups } from "./organizations/key-lookups.js";
import { toLogger } from "./logger.js";
import { buildRoutes } from "./routes.js";
import { organizationStateKeys } from "./domain/organization-state.js";
import { requestLogOptions } from "./request-log/options.js";
import { changeFeed, openDashboard, openRequestLog, wireDomain } from "./compose/domain-wiring.js";
import { dashboardLinks, firstTaker, listen, sandboxHandle } from "./compose/handle.js";
import {
  baseUrl,
  configuredOrganizations,
  replicaName,
  timeoutsOf,
  type Sandbox,
  type SandboxInternals,
  type SandboxOptions,
} from "./compose/options.js";
import { deferredWork, openStore, startWork } from "./compose/store-wiring.js";

export type {
  Sandbox,
  SandboxClockHandle,
  SandboxDashboardLink,
  SandboxEvent,
  SandboxInternals,
  SandboxOptions,
  SandboxOrganization,
  SandboxOrganizationOptions,
} from "./compose/options.js";

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
  const { domain, delivery, plan, faults } = wireDomain(store, work, options, directory, logger, chaos);
  const byKey = keyLookups(async (apiKey) => await directory.byKey(apiKey));
  const requestLog = openRequestLog(store, byKey.log, logOptions, logger, replicaName(options.replica, store.engine));
  let server: Server | undefined;
  const port = () => (server!.address() as AddressInfo).port;
  const dashboard = openDashboard(options, domain, requestLog, directory, logger);
  const admin = adminIntercept({
    directory,
    adminToken: options.adminToken,
    dashboardLinkPathOf: dashboard && (async (org) => await dashboard.newLinkPath(org)),
    replicaUrl: () => baseUrl(host, port()),
    logger,
  });
  server = createApiServer({
    routes: buildRoutes({ requestLog, faults: plan }),
    onAnswered: (answered) => requestLog.record(answered),
    intercept: firstTaker(readinessIntercept(store), admin, dashboard?.intercept.bind(dashboard)),
    transaction: (work, onlyReads, org) =>
      store.transaction(work, { onlyReads, prefetch: org === undefined ? undefined : organizationStateKeys(org) }),
    freshen: () => store.freshenCache(),
    optimistic: (request) => store.optimistically(request),
    organizationsByKey: byKey.auth,
    domain,
    bodyLimitBytes: options.bodyLimitBytes ?? 1024 * 1024,
    logger,
    timeouts,
    faults,
    trace: traceRequest,
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
