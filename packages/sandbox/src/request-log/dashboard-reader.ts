// The request log as the dashboard reads it (the port dashboard/request-log-port.ts declares).
import type { DashboardRequestLog } from "../dashboard/request-log-port.js";
import { readLogFilter } from "./log-filter.js";
import type { RequestLog } from "./request-log.js";

/**
 * The dashboard's view of `log`: its query string read as GET /_sandbox/requests reads it.
 *
 * @example
 * createDashboard({ domain, requestLog: dashboardReader(requestLog), organizations });
 */
export function dashboardReader(log: RequestLog): DashboardRequestLog {
  return {
    query: (org, query) => log.query(org, readLogFilter(query)),
    subscribe: (listener) => log.subscribe((org) => listener(org)),
  };
}
