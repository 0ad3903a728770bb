// The admin API under /_sandbox/admin: adding and listing organizations while the sandbox runs. It is guarded by
// the operator's admin token (Authorization: Bearer …), not by an organization's signature, and served beside
// the API (as the dashboard is), so its answers, which carry a new organization's secret once, never enter any
// organization's request log. Its log line holds the method, path and status only.
//
//   POST /_sandbox/admin/organizations {"name": "QA team"}  → 201, the new organization with api_key and api_secret
//   GET  /_sandbox/admin/organizations                      → 200, every organization, without secrets
//   POST /_sandbox/admin/dashboard-links {"organization": "QA team"} → 201, a new dashboard link of the organization
//                                                              named (its name, API key or ID)
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorAnswer } from "../api/error-answer.js";
import { requestLogLine } from "../http/server.js";
import { ApiError } from "../domain/api-error.js";
import type { RequestTarget } from "../api/route.js";
import type { Logger } from "../logger.js";
import { readJsonBody, send } from "../dashboard/respond.js";
import { hasAdminToken } from "./admin-token.js";
import type { OrganizationDirectory, StoredOrganization } from "./directory.js";
import { organizationNameProblem } from "./organization-name.js";

export const ADMIN_PATH = "/_sandbox/admin";
export const ADMIN_ORGANIZATIONS_PATH = `${ADMIN_PATH}/organizations`;
export const ADMIN_DASHBOARD_LINKS_PATH = `${ADMIN_PATH}/dashboard-links`;

export interface AdminApiOptions {
  directory: OrganizationDirectory;
  /** The operator's token; the admin API refuses every call without one. */
  adminToken: string | undefined;
  /** Makes a new dashboard link of an organization, answering its path (/_dashboard/#token=…); absent without a dashboard. */
  dashboardLinkPathOf: ((org: string) => Promise<string>) | undefined;
  /** This replica's own base URL (a link's path after it is `dashboard_url`; behind a balancer, use the path). */
  replicaUrl: () => string;
  logger: Logger;
}

/** Who may call: nobody when no token is set ("off"), a caller with the token, or not ("refused"). */
export type AdminAccess = "off" | "refused" | "allowed";

/**
 * The access a call has, from whether a token is configured and whether the call carries it.
 *
 * @example
 * adminAccess(false, false); // "off": answered 403, saying how to turn the admin API on
 */
export function adminAccess(configured: boolean, carriesToken: boolean): AdminAccess {
  if (!configured) return "off";
  return carriesToken ? "allowed" : "refused";
}

const ACCESS_ERRORS: Record<Exclude<AdminAccess, "allowed">, ApiError> = {
  off: new ApiError(
    403,
    "AUTH_UNAUTHORIZED",
    "The admin API is off: start the sandbox with --admin-token (or EXCHANGE_KIT_SANDBOX_ADMIN_TOKEN, or the adminToken option) to add organizations while it runs",
  ),
  refused: new ApiError(
    401,
    "AUTH_UNAUTHORIZED",
    "Missing or wrong admin token: send the sandbox's admin token as Authorization: Bearer <token>",
  ),
};

/** An organization as the list shows it: never its secret. */
function listed(org: StoredOrganization) {
  return { id: org.id, name: org.name, api_key: org.apiKey, created_at: org.createdAt };
}

/**
 * The organization a name, API key or ID designates among `organizations`: a key or ID first (each unique), else
 * the one organization of that name; an ApiError when none has it (404) or several share the name (400).
 *
 * @example
 * designatedOrganization(list, "QA team"); // the organization named "QA team"
 */
export function designatedOrganization(
  organizations: readonly StoredOrganization[],
  given: string,
): StoredOrganization {
  const exact = organizations.find((o) => o.apiKey === given || o.id === given);
  if (exact) return exact;
  const named = organizations.filter((o) => o.name === given);
  if (named.length === 1) return named[0]!;
  if (named.length === 0)
    throw new ApiError(404, "NOT_FOUND", "No organization has this name, API key or ID", {
      organization: ["Give an organization's name, API key or ID (GET /_sandbox/admin/organizations lists them)."],
    });
  throw new ApiError(400, "INPUT_MALFORMED", "Several organizations have this name", {
    organization: [`Give one's API key instead: ${named.map((o) => o.apiKey).join(", ")}.`],
  });
}

function sendEnvelope(res: ServerResponse, status: number, message: string, data: unknown): void {
  send(res, status, "application/json", JSON.stringify({ status: true, message, data }));
}

function sendError(res: ServerResponse, error: ApiError): void {
  const body = { status: false, message: error.message, data: null, err_code: error.code, errors: error.errors };
  send(res, error.status, "application/json", JSON.stringify(body), error.headers);
}

/** The admin API's paths and the methods each takes. */
const ALLOWED_METHODS: Record<string, readonly string[]> = {
  [ADMIN_ORGANIZATIONS_PATH]: ["GET", "POST"],
  [ADMIN_DASHBOARD_LINKS_PATH]: ["POST"],
};

class AdminApi {
  constructor(private readonly options: AdminApiOptions) {}

  private async add(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJsonBody(req);
    const problem = organizationNameProblem(body.name);
    if (problem) throw new ApiError(400, "INPUT_MALFORMED", "Invalid value for name", { name: [problem] });
    const org = await this.options.directory.add((body.name as string).trim());
    sendEnvelope(res, 201, "Organization added: keep its api_secret now, it is not shown again", {
      ...listed(org),
      api_secret: org.apiSecret,
      ...(await this.dashboardLink(org.id)),
    });
  }

  /** A new dashboard link: its path (valid on every replica) and this replica's URL of it; {} without a dashboard. */
  private async dashboardLink(org: string): Promise<{ dashboard_path?: string; dashboard_url?: string }> {
    const path = await this.options.dashboardLinkPathOf?.(org);
    return path === undefined ? {} : { dashboard_path: path, dashboard_url: `${this.options.replicaUrl()}${path}` };
  }

  private async link(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { organization } = await readJsonBody(req);
    if (typeof organization !== "string" || organization.trim() === "")
      throw new ApiError(400, "INPUT_MALFORMED", "Invalid value for organization", {
        organization: ["An organization's name, API key or ID."],
      });
    if (!this.options.dashboardLinkPathOf)
      throw new ApiError(404, "NOT_FOUND", "This sandbox serves no dashboard (it was started with --no-dashboard)");
    const org = designatedOrganization(await this.options.directory.list(), organization.trim());
    sendEnvelope(res, 201, "Dashboard link made: it opens this organization's dashboard on every replica for 7 days", {
      organization: listed(org),
      ...(await this.dashboardLink(org.id)),
    });
  }

  private async route(req: IncomingMessage, res: ServerResponse, target: RequestTarget): Promise<void> {
    const allowed = Object.hasOwn(ALLOWED_METHODS, target.path) ? ALLOWED_METHODS[target.path] : undefined;
    if (!allowed)
      throw new ApiError(
        404,
        "NOT_FOUND",
        `Path not found: the admin API has ${Object.keys(ALLOWED_METHODS).join(" and ")} only`,
      );
    const access = adminAccess(
      this.options.adminToken !== undefined,
      this.options.adminToken !== undefined && hasAdminToken(req.headers.authorization, this.options.adminToken),
    );
    if (access !== "allowed") throw ACCESS_ERRORS[access];
    const method = req.method ?? "GET";
    if (!allowed.includes(method))
      throw new ApiError(
        405,
        "UNKNOWN_ERROR",
        `Method ${method} not allowed on this path; allowed: ${allowed.join(", ")}`,
        {},
        { Allow: allowed.join(", ") },
      );
    if (target.path === ADMIN_DASHBOARD_LINKS_PATH) return this.link(req, res);
    if (method === "POST") return this.add(req, res);
    return sendEnvelope(res, 200, "Organizations", (await this.options.directory.list()).map(listed));
  }

  /** Answers the call; whatever fails is answered in the envelope (503 while the database is down). */
  serve(req: IncomingMessage, res: ServerResponse, target: RequestTarget): void {
    const { logger } = this.options;
    const method = req.method ?? "GET";
    this.route(req, res, target)
      .catch((caught: unknown) => {
        sendError(
          res,
          errorAnswer(caught, (detail) => logger.error(`${method} ${target.path} failed: ${detail}`)),
        );
      })
      .finally(() => {
        // Drained when the handler did not read it, so the connection can serve the next request.
        req.resume();
        if (logger.enabled) logger.info(requestLogLine(method, target.path, res.statusCode, undefined));
      });
  }
}

/**
 * The admin API as a server hook: true when it took the request (a path under /_sandbox/admin).
 *
 * @example
 * const intercept = adminIntercept({ directory, adminToken: process.env.EXCHANGE_KIT_SANDBOX_ADMIN_TOKEN, dashboardLinkPathOf: undefined, replicaUrl: () => url, logger });
 */
export function adminIntercept(
  options: AdminApiOptions,
): (req: IncomingMessage, res: ServerResponse, target: RequestTarget) => boolean {
  const api = new AdminApi(options);
  return (req, res, target) => {
    if (target.path !== ADMIN_PATH && !target.path.startsWith(`${ADMIN_PATH}/`)) return false;
    api.serve(req, res, target);
    return true;
  };
}
