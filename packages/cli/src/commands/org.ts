// exchange-kit org add|list: organizations of a running sandbox, through its admin API
// (POST/GET /_sandbox/admin/organizations, guarded by the admin token the sandbox was started with). `add`
// prints the new organization's key and secret once (the sandbox never shows the secret again); `list` never
// shows a secret. The admin API is not signed by an organization, so the calls are plain HTTP, not the client's.
import { parseJson } from "@exchange-kit/signing";
import { baseUrl } from "../credentials.js";
import { type Output, UsageError } from "../output.js";
import type { Command, CommandContext } from "./command.js";

const ADMIN_TOKEN_ENV = "EXCHANGE_KIT_SANDBOX_ADMIN_TOKEN";
const PATH = "/_sandbox/admin/organizations";

interface ListedOrganization {
  id: string;
  name: string;
  api_key: string;
  created_at: string;
}

interface AddedOrganization extends ListedOrganization {
  api_secret: string;
  dashboard_url?: string;
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
async function call<T>(base: string, token: string, method: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${base}${PATH}`, {
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
    throw new AdminCallError("UNEXPECTED_ANSWER", `${response.status} from ${base}${PATH}, not the sandbox's JSON`);
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

async function runAction(action: string, base: string, token: string, values: CommandContext["values"], out: Output) {
  if (action === "list") {
    const list = await call<ListedOrganization[]>(base, token, "GET");
    out.result(list, list.map(organizationLine).join("\n"));
    return;
  }
  if (typeof values.name !== "string") throw new UsageError("--name is required: the new organization's name");
  const added = await call<AddedOrganization>(base, token, "POST", { name: values.name });
  const lines = [
    `${out.green("added")} ${added.name} (id ${added.id})`,
    `  export EXCHANGE_API_KEY=${added.api_key} EXCHANGE_API_SECRET=${added.api_secret}`,
    "  the secret is shown only now: keep it",
    ...(added.dashboard_url ? [`  dashboard ${added.dashboard_url}`] : []),
  ];
  out.result(added, lines.join("\n"));
}

export const org: Command = {
  usage: `exchange-kit org add --name NAME [--admin-token T] [--base-url URL] [--json]
exchange-kit org list [--admin-token T] [--base-url URL] [--json]
  organizations of a running sandbox (one started with --admin-token); on a shared PostgreSQL database an
  organization added through one replica works on every replica at its next request
  add               a new organization with a generated key and secret, printed once (keep the secret)
  list              every organization: name, API key, ID, when added (never a secret)
  --admin-token T   the sandbox's admin token (default: ${ADMIN_TOKEN_ENV})
  --base-url URL    the sandbox (default: EXCHANGE_BASE_URL, then http://127.0.0.1:4020)`,
  options: {
    name: { type: "string" },
    "admin-token": { type: "string" },
    "base-url": { type: "string" },
  },
  async run({ values, positionals, out, env }) {
    const [action = ""] = positionals;
    if (!["add", "list"].includes(action))
      throw new UsageError(`org takes add or list${action ? `, not "${action}"` : ""}`);
    const token = adminTokenOf(values, env);
    const base = baseUrl(values["base-url"] as string | undefined, env);
    try {
      await runAction(action, base, token, values, out);
      return 0;
    } catch (error) {
      if (!(error instanceof AdminCallError)) throw error;
      out.error(error.code, error.message);
      return error.code === "INPUT_MALFORMED" ? 2 : 1;
    }
  },
};
