// A dashboard session over plain HTTP, as a browser holds it: the cookie the token's redirect set, and the CSRF
// token of the page.
import type { Sandbox } from "../../src/index.js";

export interface DashboardSession {
  cookie: string;
  csrf: string;
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

/** Opens the organization's dashboard link and keeps its session. */
export async function openDashboard(sandbox: Sandbox, index = 0): Promise<DashboardSession> {
  return openDashboardLink(sandbox, sandbox.dashboard[index]!.url);
}

/** Opens a dashboard link (e.g. one the admin API answered) and keeps its session. */
export async function openDashboardLink(sandbox: Sandbox, link: string): Promise<DashboardSession> {
  const entered = await fetch(link, { redirect: "manual" });
  if (entered.status !== 303) throw new Error(`the link answered ${entered.status}`);
  const cookie = entered.headers.get("set-cookie")!.split(";")[0]!;
  const page = await (await fetch(`${sandbox.url}/_dashboard/`, { headers: { cookie } })).text();
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(page)![1]!;
  const api = `${sandbox.url}/_dashboard/api/`;
  return {
    cookie,
    csrf,
    get: async (path) => read(await fetch(`${api}${path}`, { headers: { cookie } })),
    post: async (path, body, headers = { "x-csrf-token": csrf }) =>
      read(
        await fetch(`${api}${path}`, {
          method: "POST",
          headers: { cookie, "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
        }),
      ),
  };
}
