// The dashboard at /_dashboard/: served by the sandbox's own server beside the API, unsigned, and open only
// through an organization's link. GET /_dashboard/?token=… checks the token, opens a session (an HttpOnly,
// SameSite=Strict cookie scoped to /_dashboard and named after the port, so sandboxes on other ports keep
// theirs) and redirects to the bare URL, so the token leaves the address bar. Every other request needs the
// session; a POST also needs the session's CSRF token in X-CSRF-Token and, when the browser sends one, an Origin
// of this server. Without them: 401 (403 for CSRF) and nothing of any organization.
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError } from "../http/api-error.js";
import type { Organization } from "../http/route.js";
import type { RequestTarget } from "../http/request-target.js";
import type { SandboxDomain } from "../domain/sandbox-domain.js";
import type { RequestLog } from "../request-log/request-log.js";
import { cookieValue, DashboardAccess, type DashboardSession, sameSecret } from "./access.js";
import { answerCall } from "./api.js";
import { type DashboardUi, loadUi, pageHtml, unauthorizedHtml } from "./assets.js";
import { openStream } from "./live.js";
import { readJsonBody, send, sendApiError, sendJson } from "./respond.js";

export const DASHBOARD_PATH = "/_dashboard/";

export interface DashboardOptions {
  domain: SandboxDomain;
  requestLog: RequestLog;
  /** The organizations at start (each gets its link's token now), and every organization by ID. */
  organizations: {
    readonly started: readonly string[];
    get(id: string): Organization | undefined;
  };
  /** Time between two live messages at most. Default 150 ms. */
  liveCoalesceMs?: number;
}

export interface Dashboard {
  /** Takes the request when it is the dashboard's (under /_dashboard); false otherwise. */
  intercept(req: IncomingMessage, res: ServerResponse, target: RequestTarget): boolean;
  /** The organization's dashboard URL, carrying its token. */
  linkOf(baseUrl: string, org: string): string;
  /** Ends the live streams. */
  close(): void;
}

const HTML = "text/html; charset=utf-8";

/** Whether a state-changing request carries the session's CSRF token and comes from this server's own page. */
export function passesCsrf(req: IncomingMessage, session: DashboardSession): boolean {
  const token = req.headers["x-csrf-token"];
  if (typeof token !== "string" || !sameSecret(token, session.csrf)) return false;
  const origin = req.headers.origin;
  return origin === undefined || origin === `http://${req.headers.host}`;
}

class DashboardServer implements Dashboard {
  private readonly access: DashboardAccess;
  private readonly ui: DashboardUi = loadUi();
  private readonly streams = new Set<() => void>();

  constructor(
    private readonly options: DashboardOptions,
    private readonly port: () => number,
  ) {
    this.access = new DashboardAccess(options.organizations.started);
  }

  private cookie(): string {
    return `exchange_kit_dashboard_${this.port()}`;
  }

  private sessionOf(req: IncomingMessage): DashboardSession | undefined {
    return this.access.session(cookieValue(req.headers.cookie, this.cookie()));
  }

  private enter(res: ServerResponse, token: string): void {
    const org = this.access.organizationOf(token);
    if (!org) {
      send(res, 401, HTML, unauthorizedHtml("This dashboard link is not valid (or is from an earlier start)."));
      return;
    }
    const { id } = this.access.open(org);
    res.writeHead(303, {
      Location: DASHBOARD_PATH,
      "Set-Cookie": `${this.cookie()}=${id}; HttpOnly; SameSite=Strict; Path=/_dashboard`,
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
    });
    res.end();
  }

  private page(req: IncomingMessage, res: ServerResponse, query: URLSearchParams): void {
    const token = query.get("token");
    const session = this.sessionOf(req);
    if (token !== null) this.enter(res, token);
    else if (!session) send(res, 401, HTML, unauthorizedHtml("You are not signed in to this dashboard."));
    else {
      const name = this.options.organizations.get(session.org)!.name;
      send(res, 200, HTML, pageHtml(this.ui.template, name, session.csrf));
    }
  }

  private asset(req: IncomingMessage, res: ServerResponse, name: string): void {
    const found = this.ui.assets.get(name);
    if (!this.sessionOf(req)) send(res, 401, "text/plain", "Not signed in");
    else if (!found) send(res, 404, "text/plain", "Not found");
    else send(res, 200, found.type, found.body);
  }

  private stream(res: ServerResponse, org: string): void {
    const { domain, requestLog, liveCoalesceMs } = this.options;
    const end = openStream(res, org, { store: domain.store, requestLog, coalesceMs: liveCoalesceMs ?? 150 });
    this.streams.add(end);
    res.on("close", () => this.streams.delete(end));
  }

  private async call(req: IncomingMessage, res: ServerResponse, target: RequestTarget): Promise<void> {
    const segments = target.path.slice("/_dashboard/api/".length).split("/").map(decodeURIComponent);
    const session = this.sessionOf(req);
    if (!session) throw new ApiError(401, "AUTH_UNAUTHORIZED", "Not signed in to the dashboard");
    const method = req.method ?? "GET";
    if (method === "GET" && segments.join("/") === "stream") return this.stream(res, session.org);
    if (method !== "GET" && !passesCsrf(req, session))
      throw new ApiError(403, "AUTH_UNAUTHORIZED", "Missing or wrong CSRF token: reload the dashboard");
    const body = method === "GET" ? {} : await readJsonBody(req);
    const query = new URLSearchParams(target.search);
    const org = this.options.organizations.get(session.org)!;
    // The secret never reaches the browser, even where a record holds it (a name the client echoed it into).
    sendJson(res, 200, answerCall({ method, segments, query, body, org }, this.options), [org.apiSecret]);
  }

  private api(req: IncomingMessage, res: ServerResponse, target: RequestTarget): void {
    this.call(req, res, target).catch((error: unknown) => {
      if (res.headersSent) return;
      if (error instanceof ApiError) sendApiError(res, error);
      else if (error instanceof URIError) sendApiError(res, new ApiError(400, "INPUT_MALFORMED", "Malformed path"));
      else sendApiError(res, new ApiError(500, "SYS_INTERNAL_ERROR", "Internal Server Error"));
    });
  }

  intercept(req: IncomingMessage, res: ServerResponse, target: RequestTarget): boolean {
    const path = target.path;
    if (path !== "/_dashboard" && !path.startsWith(DASHBOARD_PATH)) return false;
    const isApi = path.startsWith("/_dashboard/api/");
    if (path === "/_dashboard") send(res, 308, HTML, "", { Location: DASHBOARD_PATH });
    else if (path === DASHBOARD_PATH) this.page(req, res, new URLSearchParams(target.search));
    else if (path.startsWith("/_dashboard/assets/")) this.asset(req, res, path.slice("/_dashboard/assets/".length));
    else if (isApi) this.api(req, res, target);
    else send(res, 404, "text/plain", "Not found");
    // A body nobody reads is drained, so the connection can serve the next request.
    if (!isApi) req.resume();
    return true;
  }

  linkOf(baseUrl: string, org: string): string {
    return `${baseUrl}${DASHBOARD_PATH}?token=${this.access.tokenOf(org)}`;
  }

  close(): void {
    for (const end of this.streams) end();
    this.streams.clear();
  }
}

/**
 * The dashboard of a sandbox: `intercept` is the server's hook, `linkOf` each organization's link.
 *
 * @example
 * const dashboard = createDashboard({ domain, requestLog, organizations }, () => port);
 * dashboard.linkOf("http://127.0.0.1:4020", org.id); // "http://127.0.0.1:4020/_dashboard/?token=…"
 */
export function createDashboard(options: DashboardOptions, port: () => number): Dashboard {
  const server = new DashboardServer(options, port);
  return {
    intercept: (req, res, target) => server.intercept(req, res, target),
    linkOf: (baseUrl, org) => server.linkOf(baseUrl, org),
    close: () => server.close(),
  };
}
