import type { Server } from "node:http";
import type { SandboxClock } from "../domain/clock.js";
import type { SandboxDomain } from "../domain/sandbox-domain.js";
import type { Chaos } from "../faults/chaos.js";
import type { ServerOptions } from "../http/server.js";
import type { OrganizationDirectory } from "../organizations/directory.js";
import type { Logger } from "../logger.js";
import type { RequestLog } from "../request-log/request-log.js";
import type { Dashboard } from "../dashboard/dashboard.js";
import type { Store } from "../store/store.js";
import type { ChangeFeed } from "../store/postgres/change-feed.js";
import type { WebhookDelivery } from "../webhooks/delivery.js";
import type { DeferredWork } from "../domain/deferred-work.js";
import type { Sandbox, SandboxClockHandle, SandboxDashboardLink, SandboxOrganization } from "./options.js";

/** The handle's clocks: one organization's, or (advance without an ID) every organization's of the database. */
export function clockHandle(
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
/**
 * A new dashboard link of every organization of the database, made at start. When they cannot be written (a full
 * disk), the sandbox still starts, without links, and says so: `exchange-kit org link` makes one later.
 */
export async function dashboardLinks(
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
export function sandboxHandle(
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
/** Resolves once the server listens; when it cannot, runs `release` and rejects with the server's error. */
export function listen(server: Server, port: number, host: string, release: () => void): Promise<void> {
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
export type Intercept = NonNullable<ServerOptions<unknown>["intercept"]>;
/** The first of `intercepts` that takes a request outside the API: the readiness probe, the admin API, the dashboard. */
export function firstTaker(...intercepts: Array<Intercept | undefined>): Intercept {
  return (req, res, target) => intercepts.some((take) => take?.(req, res, target) ?? false);
}
