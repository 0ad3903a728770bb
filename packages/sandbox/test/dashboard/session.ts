// A dashboard session over plain HTTP, as the page holds it: the link's token exchanged for a session token,
// which every call sends as `Authorization: Bearer …`.
import type { Sandbox } from "../../src/index.js";

export interface DashboardSession {
  token: string;
  /** The headers that carry the session. */
  headers: Record<string, string>;
  get(path: string): Promise<{ status: number; body: any; text: string }>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
}

async function read(response: Response) {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text };
}

/** The link's token: what follows #token= in its URL. */
export function linkToken(link: string): string {
  return new URL(link).hash.slice("#token=".length);
}

/** Sends a link's token to POST /_dashboard/api/session of `base`, as the page does; the raw answer. */
export function exchangeLink(base: string, token: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/_dashboard/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ link: token }),
  });
}

/** A session token used against `base` (any replica of the database). */
export function sessionOn(base: string, token: string): DashboardSession {
  const api = `${base}/_dashboard/api/`;
  const headers = { authorization: `Bearer ${token}` };
  return {
    token,
    headers,
    get: async (path) => read(await fetch(`${api}${path}`, { headers })),
    post: async (path, body, extra = {}) =>
      read(
        await fetch(`${api}${path}`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json", ...extra },
          body: JSON.stringify(body),
        }),
      ),
  };
}

/** Opens a dashboard link (e.g. one the admin API answered) against `base` (its own sandbox by default). */
export async function openDashboardLink(link: string, base = new URL(link).origin): Promise<DashboardSession> {
  const answer = await exchangeLink(base, linkToken(link));
  if (answer.status !== 201) throw new Error(`the link answered ${answer.status}: ${await answer.text()}`);
  const { token } = (await answer.json()) as { token: string };
  return sessionOn(base, token);
}

/** Opens the organization's dashboard link and keeps its session. */
export async function openDashboard(sandbox: Sandbox, index = 0): Promise<DashboardSession> {
  return openDashboardLink(sandbox.dashboard[index]!.url);
}
