// The dashboard's calls to the sandbox: same origin, each with the session's token in an Authorization header.
// The token lives in this tab's sessionStorage, which only this exact origin (scheme, host and port) can read;
// no cookie is used, so nothing another port of the host serves can receive or replace it. A refused call
// throws its error envelope's message and code.
const SESSION_KEY = "exchange-kit-dashboard-session";

/** Whether this tab holds a session (it may still have expired: a call then answers 401). */
export function signedIn() {
  return sessionStorage.getItem(SESSION_KEY) !== null;
}

/** Forgets the session (after a 401: expired, or logged out by newer sessions of the organization). */
export function signOut() {
  sessionStorage.removeItem(SESSION_KEY);
}

/** The headers that carry the session. */
export function authorization() {
  const token = sessionStorage.getItem(SESSION_KEY);
  return token ? { Authorization: `Bearer ${token}` } : {};
}

export class CallFailed extends Error {
  constructor(status, body) {
    super(body?.message ?? `The sandbox answered ${status}`);
    this.status = status;
    this.code = body?.err_code ?? null;
    this.errors = body?.errors ?? null;
  }
}

async function answer(res) {
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new CallFailed(res.status, body);
  return body;
}

/** GET /_dashboard/api/<path>?<query> (empty values left out). */
export async function get(path, query = {}) {
  const params = new URLSearchParams(
    Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== ""),
  );
  const suffix = params.size > 0 ? `?${params}` : "";
  return answer(await fetch(`/_dashboard/api/${path}${suffix}`, { credentials: "omit", headers: authorization() }));
}

/** POST /_dashboard/api/<path> with a JSON body. */
export async function post(path, body = {}) {
  return answer(
    await fetch(`/_dashboard/api/${path}`, {
      method: "POST",
      credentials: "omit",
      headers: { "Content-Type": "application/json", ...authorization() },
      body: JSON.stringify(body),
    }),
  );
}

/** Exchanges a link's token for a session of its organization, kept in this tab's sessionStorage. */
export async function enter(link) {
  const opened = await post("session", { link });
  sessionStorage.setItem(SESSION_KEY, opened.token);
}

/** A failure as one line for a status region: the message, its code and the fields it names. */
export function failureText(error) {
  if (!(error instanceof CallFailed)) return `Failed: ${error.message}`;
  const fields =
    error.errors && typeof error.errors === "object"
      ? Object.entries(error.errors)
          .map(([name, problems]) => `${name}: ${[].concat(problems).join(" ")}`)
          .join("; ")
      : "";
  return `Refused (${error.status}${error.code ? ` ${error.code}` : ""}): ${error.message}${fields ? ` — ${fields}` : ""}`;
}
