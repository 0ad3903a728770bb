// The dashboard's calls to the sandbox: same origin, the session cookie sent by the browser; every POST carries
// the page's CSRF token. A refused call throws its error envelope's message and code.
const csrf = document.querySelector('meta[name="csrf-token"]').content;

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
  return answer(await fetch(`/_dashboard/api/${path}${suffix}`, { credentials: "same-origin" }));
}

/** POST /_dashboard/api/<path> with a JSON body and the CSRF token. */
export async function post(path, body = {}) {
  return answer(
    await fetch(`/_dashboard/api/${path}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body),
    }),
  );
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
