// The dashboard at /_dashboard/: served by the sandbox's own server beside the API, unsigned. The page and its
// files hold nothing of any organization and are served to anyone; what they show comes from the calls under
// /_dashboard/api/, each of which needs a session token in `Authorization: Bearer …` (access.ts says why a
// header and not a cookie). The page gets one by sending its link's token to POST /_dashboard/api/session.
// Every call must come from this server's own origin when the browser names one. Without a live session: 401
// and nothing of any organization.
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError } from "../domain/api-error.js";
import { refuseNul, refuseNulInQuery } from "../api/nul-text.js";
import type { Organization } from "../api/route.js";
import type { RequestTarget } from "../api/route.js";
import { errorAnswer } from "../api/error-answer.js";
import type { Logger } from "../logger.js";
import type { SandboxDomain } from "../domain/sandbox-domain.js";
import { grantDigest } from "../store/dashboard-grants.js";
import { bearerToken, DashboardAccess, fromOwnOrigin } from "./access.js";
import { answerCall } from "./api.js";
import { type DashboardUi, loadUi } from "./assets.js";
import { isResumedStream, openStream } from "./live.js";
import type { DashboardRequestLog } from "./request-log-port.js";
import { readJsonBody, send, sendApiError, sendJson } from "./respond.js";
import { StreamCap } from "./stream-cap.js";

export const DASHBOARD_PATH = "/_dashboard/";

export interface DashboardOptions {
  domain: SandboxDomain;
  requestLog: DashboardRequestLog;
  /** Every organization by ID. */
  organizations: { get(id: string): Promise<Organization | undefined> };
  /** Where a call that fails unexpectedly is told (never a token); silent when absent. */
  logger?: Logger;
  /** Time between two live messages at most. Default 150 ms. */
  liveCoalesceMs?: number;
  /** Live streams one session may hold open on this replica at once. Default 4. */
  streamsPerSession?: number;
  /** Milliseconds since the epoch, for links' and sessions' expiry. Default Date.now. */
  now?: () => number;
}

export interface Dashboard {
  /** Takes the request when it is the dashboard's (under /_dashboard); false otherwise. */
  intercept(req: IncomingMessage, res: ServerResponse, target: RequestTarget): boolean;
  /** A new link to the organization's dashboard: its path, `/_dashboard/#token=…`, to put after a base URL. */
  newLinkPath(org: string): Promise<string>;
  /** Ends the live streams. */
  close(): void;
}

const HTML = "text/html; charset=utf-8";
const NOT_SIGNED_IN = new ApiError(
  401,
  "AUTH_UNAUTHORIZED",
  "Not signed in to the dashboard: open your organization's dashboard link (exchange-kit org link prints a new one)",
);
const FOREIGN_ORIGIN = new ApiError(403, "AUTH_UNAUTHORIZED", "Dashboard calls are accepted from its own page only");

class DashboardServer implements Dashboard {
  private readonly access: DashboardAccess;
  private readonly ui: DashboardUi = loadUi();
  private readonly streams = new Set<() => void>();
  private readonly cap: StreamCap;

  constructor(private readonly options: DashboardOptions) {
    this.access = new DashboardAccess(options.domain.store, options.now);
    this.cap = new StreamCap(options.streamsPerSession ?? 4);
  }

  private asset(res: ServerResponse, name: string): void {
    const found = this.ui.assets.get(name);
    if (!found) send(res, 404, "text/plain", "Not found");
    else send(res, 200, found.type, found.body);
  }

  /** POST /_dashboard/api/session {"link": token}: a new session of the link's organization. */
  private async enter(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { link } = await readJsonBody(req);
    const opened = typeof link === "string" ? await this.access.open(link) : undefined;
    if (!opened)
      throw new ApiError(
        401,
        "AUTH_UNAUTHORIZED",
        "This dashboard link is not valid (forged, expired, or replaced by newer ones): exchange-kit org link prints a new one",
      );
    const org = (await this.options.organizations.get(opened.org))!;
    sendJson(res, 201, { token: opened.token, organization: { id: org.id, name: org.name } });
  }

  private stream(req: IncomingMessage, res: ServerResponse, org: string, token: string): void {
    const key = grantDigest(token);
    if (!this.cap.take(key))
      throw new ApiError(
        429,
        "TOO_MANY_REQUESTS",
        `At most ${this.cap.limit} live streams per session: close another tab of this dashboard`,
      );
    const { domain, requestLog, liveCoalesceMs } = this.options;
    const sources = { store: domain.store, requestLog, coalesceMs: liveCoalesceMs ?? 150 };
    const end = openStream(res, org, sources, isResumedStream(req.headers["last-event-id"]));
    this.streams.add(end);
    res.on("close", () => {
      this.streams.delete(end);
      this.cap.give(key);
    });
  }

  private async call(req: IncomingMessage, res: ServerResponse, target: RequestTarget): Promise<void> {
    if (!fromOwnOrigin(req.headers.origin, req.headers.host)) throw FOREIGN_ORIGIN;
    const segments = target.path.slice("/_dashboard/api/".length).split("/").map(decodeURIComponent);
    const method = req.method ?? "GET";
    const path = segments.join("/");
    if (method === "POST" && path === "session") return this.enter(req, res);
    const token = bearerToken(req.headers.authorization);
    const session = await this.access.session(token);
    if (session === undefined || token === undefined) throw NOT_SIGNED_IN;
    if (method === "GET" && path === "stream") return this.stream(req, res, session, token);
    const body = method === "GET" ? {} : await readJsonBody(req);
    const query = new URLSearchParams(target.search);
    refuseNul({ path: segments.join("/") });
    refuseNulInQuery(query);
    refuseNul(body);
    await this.options.domain.store.freshenCache();
    const org = (await this.options.organizations.get(session))!;
    // The secret never reaches the browser, even where a record holds it (a name the client echoed it into).
    sendJson(res, 200, await answerCall({ method, segments, query, body, org }, this.options), [org.apiSecret]);
  }

  private api(req: IncomingMessage, res: ServerResponse, target: RequestTarget): void {
    this.call(req, res, target)
      .catch((caught: unknown) => {
        if (res.headersSent) return;
        if (caught instanceof URIError) sendApiError(res, new ApiError(400, "INPUT_MALFORMED", "Malformed path"));
        // 503 while the database is down: no session can be checked, so none is accepted.
        else
          sendApiError(
            res,
            errorAnswer(caught, (detail) => this.options.logger?.error(`dashboard call failed: ${detail}`)),
          );
      })
      .finally(() => req.resume());
  }

  intercept(req: IncomingMessage, res: ServerResponse, target: RequestTarget): boolean {
    const path = target.path;
    if (path !== "/_dashboard" && !path.startsWith(DASHBOARD_PATH)) return false;
    const isApi = path.startsWith("/_dashboard/api/");
    if (path === "/_dashboard") send(res, 308, HTML, "", { Location: DASHBOARD_PATH });
    else if (path === DASHBOARD_PATH) send(res, 200, HTML, this.ui.page);
    else if (path.startsWith("/_dashboard/assets/")) this.asset(res, path.slice("/_dashboard/assets/".length));
    else if (isApi) this.api(req, res, target);
    else send(res, 404, "text/plain", "Not found");
    // A body nobody reads is drained, so the connection can serve the next request.
    if (!isApi) req.resume();
    return true;
  }

  async newLinkPath(org: string): Promise<string> {
    return `${DASHBOARD_PATH}#token=${await this.access.newLink(org)}`;
  }

  close(): void {
    for (const end of this.streams) end();
    this.streams.clear();
  }
}

/**
 * The dashboard of a sandbox: `intercept` is the server's hook, `newLinkPath` makes an organization's link.
 *
 * @example
 * const dashboard = createDashboard({ domain, requestLog, organizations });
 * `${sandbox.url}${dashboard.newLinkPath(org.id)}`; // "http://127.0.0.1:4020/_dashboard/#token=…"
 */
export function createDashboard(options: DashboardOptions): Dashboard {
  const server = new DashboardServer(options);
  return {
    intercept: (req, res, target) => server.intercept(req, res, target),
    newLinkPath: (org) => server.newLinkPath(org),
    close: () => server.close(),
  };
}
