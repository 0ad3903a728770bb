// exchange-kit org add|list|link: organizations of a running sandbox, through its admin API (guarded by the admin
// token the sandbox was started with). `add` prints the new organization's key and secret once (the sandbox never
// shows the secret again) and a dashboard link; `list` never shows a secret; `link NAME|KEY` prints a new
// dashboard link of any organization. A link is the sandbox's path after the URL this command called, so one
// asked through a load balancer opens through it (the link is kept in the database: every replica accepts it).
// The admin API is not signed by an organization, so the calls are plain HTTP, not the client's.
import { parseJson } from "@exchange-kit/signing";
import { baseUrl } from "../credentials.js";
import { type Output, UsageError } from "../output.js";
import type { Command, CommandContext } from "./command.js";

const ADMIN_TOKEN_ENV = "EXCHANGE_KIT_SANDBOX_ADMIN_TOKEN";
const ORGANIZATIONS = "/_sandbox/admin/organizations";
const DASHBOARD_LINKS = "/_sandbox/admin/dashboard-links";

interface ListedOrganization {
  id: string;
  name: string;
  api_key: string;
  created_at: string;
}

/** A dashboard link as the admin API answers it: the path to put after the sandbox's URL. */
interface DashboardLink {
  dashboard_path?: string;
  dashboard_url?: string;
}

interface AddedOrganization extends ListedOrganization, DashboardLink {
  api_secret: string;
}

interface MadeLink extends DashboardLink {
  organization: ListedOrganization;
}

/** The admin token: --admin-token, then EXCHANGE_KIT_SANDBOX_ADMIN_TOKEN; a usage error without either. */
export function adminTokenOf(values: CommandContext["values"], env: CommandContext["env"]): string {
  const token = typeof values["admin-token"] === "string" ? values["admin-token"] : env[ADMIN_TOKEN_ENV];
  if (!token) throw new UsageError(`no admin token: pass --admin-token or set ${ADMIN_TOKEN_ENV}`);
  return token;
}

/** A failed admin call: the sandbox's status, err_code and message (never the token). */
class AdminCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The envelope's data of one admin call; an AdminCallError for an error answer or no answer at all. */
async function call<T>(base: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    const reason = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new AdminCallError("SANDBOX_UNREACHABLE", `cannot reach the sandbox at ${base} (${reason}).`);
  }
  const text = await response.text();
  let envelope: { status?: boolean; message?: string; err_code?: string; data?: unknown; errors?: unknown };
  try {
    envelope = parseJson(text) as typeof envelope;
  } catch {
    throw new AdminCallError("UNEXPECTED_ANSWER", `${response.status} from ${base}${path}, not the sandbox's JSON`);
  }
  if (!response.ok || envelope.status !== true) {
    const errors = envelope.errors && typeof envelope.errors === "object" ? envelope.errors : {};
    const fields = Object.entries(errors).map(([field, messages]) => `\n  ${field}: ${[messages].flat().join(" ")}`);
    const code = envelope.err_code ?? "UNKNOWN_ERROR";
    throw new AdminCallError(code, `${response.status} ${code}: ${envelope.message ?? ""}${fields.join("")}`);
  }
  return envelope.data as T;
}

/** One organization as a line of `org list`: `QA team  sbx_… (id …, added …)`. */
export function organizationLine(org: ListedOrganization): string {
  return `${org.name}  ${org.api_key}  (id ${org.id}, added ${org.created_at})`;
}

/** How `org list` says to open an organization's dashboard: the command that prints a new link. */
export function openHint(org: ListedOrganization): string {
  return `  dashboard: exchange-kit org link ${org.api_key}`;
}

/** The link to print: the answered path after the URL this command called; undefined without a dashboard. */
export function linkThrough(base: string, answered: DashboardLink): string | undefined {
  return answered.dashboard_path === undefined ? undefined : `${base.replace(/\/+$/, "")}${answered.dashboard_path}`;
}

async function list(base: string, token: string, out: Output) {
  const listed = await call<ListedOrganization[]>(base, token, "GET", ORGANIZATIONS);
  out.result(listed, listed.map((o) => `${organizationLine(o)}\n${openHint(o)}`).join("\n"));
}

async function link(base: string, token: string, positionals: string[], out: Output) {
  const organization = positionals.slice(1).join(" ");
  if (!organization.trim()) throw new UsageError("org link takes the organization's name or API key");
  const made = await call<MadeLink>(base, token, "POST", DASHBOARD_LINKS, { organization });
  const url = linkThrough(base, made);
  out.result(
    { ...made, ...(url ? { dashboard_url: url } : {}) },
    `${made.organization.name} (${made.organization.api_key}): dashboard ${url ? out.bold(url) : "(none)"}\n  opens on every replica for 7 days; a session lasts 12 hours`,
  );
}

async function add(base: string, token: string, values: CommandContext["values"], out: Output) {
  if (typeof values.name !== "string") throw new UsageError("--name is required: the new organization's name");
  const added = await call<AddedOrganization>(base, token, "POST", ORGANIZATIONS, { name: values.name });
  const url = linkThrough(base, added);
  const lines = [
    `${out.green("added")} ${added.name} (id ${added.id})`,
    `  export EXCHANGE_API_KEY=${added.api_key} EXCHANGE_API_SECRET=${added.api_secret}`,
    "  the secret is shown only now: keep it",
    ...(url ? [`  dashboard ${url}`] : []),
  ];
  out.result({ ...added, ...(url ? { dashboard_url: url } : {}) }, lines.join("\n"));
}

function runAction(action: string, base: string, token: string, context: CommandContext) {
  const { values, positionals, out } = context;
  if (action === "list") return list(base, token, out);
  if (action === "link") return link(base, token, positionals, out);
  return add(base, token, values, out);
}

export const org: Command = {
  usage: `exchange-kit org add --name NAME [--admin-token T] [--base-url URL] [--json]
exchange-kit org list [--admin-token T] [--base-url URL] [--json]
exchange-kit org link NAME|KEY [--admin-token T] [--base-url URL] [--json]
  organizations of a running sandbox (one started with --admin-token); on a shared PostgreSQL database an
  organization added through one replica works on every replica at its next request
  add               a new organization with a generated key and secret, printed once (keep the secret), and a
                    link to its dashboard
  list              every organization: name, API key, ID, when added (never a secret), and how to open its dashboard
  link NAME|KEY     a new link to an organization's dashboard (by its name, API key or ID): it opens on every
                    replica of the database, through the --base-url it was asked through, for 7 days
  --admin-token T   the sandbox's admin token (default: ${ADMIN_TOKEN_ENV})
  --base-url URL    the sandbox, or the load balancer in front of its replicas (default: EXCHANGE_BASE_URL, then
                    http://127.0.0.1:4020)`,
  options: {
    name: { type: "string" },
    "admin-token": { type: "string" },
    "base-url": { type: "string" },
  },
  async run(context) {
    const { values, positionals, out, env } = context;
    const [action = ""] = positionals;
    if (!["add", "list", "link"].includes(action))
      throw new UsageError(`org takes add, list or link${action ? `, not "${action}"` : ""}`);
    const token = adminTokenOf(values, env);
    const base = baseUrl(values["base-url"] as string | undefined, env);
    try {
      await runAction(action, base, token, context);
      return 0;
    } catch (error) {
      if (!(error instanceof AdminCallError)) throw error;
      out.error(error.code, error.message);
      return error.code === "INPUT_MALFORMED" ? 2 : 1;
    }
  },
};
