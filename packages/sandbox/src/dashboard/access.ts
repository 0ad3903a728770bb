// Who may see the dashboard: a random token per organization, printed in the ready line as part of the
// organization's dashboard URL (as Jupyter does), opens a session for that organization only. The session is an
// HttpOnly, SameSite=Strict cookie; each session has its own CSRF token, which state-changing calls must send
// back in a header. Tokens and sessions live as long as the sandbox: a restart prints new links.
import { randomBytes, timingSafeEqual } from "node:crypto";

export interface DashboardSession {
  org: string;
  csrf: string;
}

/** Sessions kept at most; opening more drops the oldest (a link opened again and again stays bounded). */
const MAX_SESSIONS = 1000;

const secret = () => randomBytes(32).toString("base64url");

/** Equal strings, compared in constant time (a token must not leak through timing). */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export class DashboardAccess {
  private readonly tokens = new Map<string, string>();
  private readonly sessions = new Map<string, DashboardSession>();

  /** One new random token per organization ID; an organization added later gets its token when first asked. */
  constructor(organizationIds: readonly string[]) {
    for (const id of organizationIds) this.tokens.set(id, secret());
  }

  /** The organization's token (made on first use: organizations may be added while the sandbox runs). */
  tokenOf(org: string): string {
    let token = this.tokens.get(org);
    if (token === undefined) {
      token = secret();
      this.tokens.set(org, token);
    }
    return token;
  }

  /** The organization a token opens, or undefined (a forged token, or one of an earlier start). */
  organizationOf(token: string): string | undefined {
    for (const [org, expected] of this.tokens) if (sameSecret(token, expected)) return org;
    return undefined;
  }

  /** A new session for the organization: its ID (the cookie's value) and CSRF token. */
  open(org: string): { id: string; session: DashboardSession } {
    const id = secret();
    const session = { org, csrf: secret() };
    this.sessions.set(id, session);
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    return { id, session };
  }

  session(id: string | undefined): DashboardSession | undefined {
    return id === undefined ? undefined : this.sessions.get(id);
  }
}

/** The value of one cookie of a Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
