// Who may see the dashboard. An organization's link carries a random link token in its fragment
// (/_dashboard/#token=…: a fragment never reaches a server, a balancer's access log or a Referer). The page
// exchanges it (POST /_dashboard/api/session) for a session token of its own, keeps that in sessionStorage and
// sends it as `Authorization: Bearer …` on every call. No cookie is involved: cookies are not scoped by port, so
// a server on another port of the host could receive one or toss its own; a sessionStorage entry belongs to the
// page's exact origin (scheme, host and port), and a header set by script is sent by nothing else, which is also
// what makes cross-site request forgery moot. Links and sessions are kept in the database (digests only, per
// organization, with an expiry: store/dashboard-grants.ts), so every replica accepts what any replica made.
import { randomBytes } from "node:crypto";
import type { Store } from "../store/store.js";

export interface AccessLimits {
  /** How long a link opens sessions. */
  linkTtlMs: number;
  /** How long a session lasts from its opening. */
  sessionTtlMs: number;
  /** Links kept per organization: a newer one drops the organization's oldest. */
  linksPerOrganization: number;
  /** Sessions kept per organization: opening one more logs out that organization's oldest, never another's. */
  sessionsPerOrganization: number;
}

const HOUR = 3_600_000;

export const ACCESS_LIMITS: AccessLimits = {
  linkTtlMs: 7 * 24 * HOUR,
  sessionTtlMs: 12 * HOUR,
  linksPerOrganization: 20,
  sessionsPerOrganization: 100,
};

const secret = () => randomBytes(32).toString("base64url");

/**
 * The token of an `Authorization: Bearer <token>` header, or undefined (no header, another scheme, no token).
 *
 * @example
 * bearerToken("Bearer abc"); // "abc"
 */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer ([\w-]{1,128})$/i.exec(header.trim());
  return match?.[1];
}

/**
 * Whether a request comes from the dashboard's own page: no Origin (not a cross-origin browser request) or this
 * server's host and port, as the request names them in Host. Both schemes are taken: behind a balancer that ends
 * TLS the page is https while the sandbox is reached over http (what binds a session to the page's exact origin is
 * sessionStorage, in the browser; this check is a second fence).
 *
 * @example
 * fromOwnOrigin(undefined, "127.0.0.1:4020"); // true
 * fromOwnOrigin("http://127.0.0.1:4021", "127.0.0.1:4020"); // false: another port is another origin
 */
export function fromOwnOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
}

/** An opened session: its token (shown once, to the page that opened it) and organization. */
export interface OpenedSession {
  token: string;
  org: string;
}

/**
 * Links and sessions, in the store.
 *
 * @example
 * const access = new DashboardAccess(store);
 * const link = await access.newLink(org.id); // goes into /_dashboard/#token=…
 * (await access.open(link))?.org === org.id; // true, on any replica of the database
 */
export class DashboardAccess {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
    private readonly limits: AccessLimits = ACCESS_LIMITS,
  ) {}

  /** A new link token for the organization (kept as a digest until it expires). */
  async newLink(org: string): Promise<string> {
    const token = secret();
    const now = this.now();
    const { linkTtlMs, linksPerOrganization } = this.limits;
    await this.store.transaction(() =>
      this.store.dashboardGrants.add("link", token, org, now + linkTtlMs, now, linksPerOrganization),
    );
    return token;
  }

  /** A new session for the organization a link token opens; undefined for a forged, expired or dropped link. */
  async open(linkToken: string): Promise<OpenedSession | undefined> {
    const now = this.now();
    const { sessionTtlMs, sessionsPerOrganization } = this.limits;
    return await this.store.transaction(async () => {
      const org = await this.store.dashboardGrants.organizationOf("link", linkToken, now);
      if (org === undefined) return undefined;
      const token = secret();
      await this.store.dashboardGrants.add("session", token, org, now + sessionTtlMs, now, sessionsPerOrganization);
      return { token, org };
    });
  }

  /** The organization of a live session token, or undefined (none, forged, expired, or logged out by the cap). */
  async session(token: string | undefined): Promise<string | undefined> {
    return token === undefined
      ? undefined
      : await this.store.dashboardGrants.organizationOf("session", token, this.now());
  }
}
