// The client never follows a redirect (see ExchangeRedirectError): fetch's default mode would send X-API-KEY,
// X-TIMESTAMP, X-SIGNATURE (and, on 307/308, the body) to wherever Location points. Every request is made with
// redirect: "manual", and the answer is read here.
import { ExchangeRedirectError, type OperationRef } from "./errors.js";

/** What a redirect answer shows: its status, the origin it pointed to, and whether a fetch followed it anyway. */
export interface Redirect {
  readonly status: number;
  readonly locationOrigin: string | undefined;
  readonly followed: boolean;
}

/** The members of a Response the decision reads. */
export type RedirectSignals = Pick<Response, "status" | "type" | "redirected" | "url" | "headers">;

/** The origin of `location` resolved against `base` (a Location may be relative), or undefined when it has none. */
function originOf(location: string | null, base: string): string | undefined {
  if (location === null || location === "") return undefined;
  try {
    const { origin } = new URL(location, base);
    // Opaque origins (data:, about:) serialize as "null": nothing to name.
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * The redirect an answer is, or undefined for any other answer. With `redirect: "manual"`, Node (undici), Bun, Deno
 * and Workers return the 3xx with its Location; browsers return an opaque redirect (type "opaqueredirect",
 * status 0, no headers). A fetch that ignores the mode follows the redirect and marks its answer `redirected`.
 * Every 3xx counts: the interface document has none.
 *
 * @example
 * redirectOf(new Response(null, { status: 302, headers: { location: "https://b.example/x?t=1" } }), "https://a.example/");
 * // { status: 302, locationOrigin: "https://b.example", followed: false }
 */
export function redirectOf(response: RedirectSignals, requestUrl: string): Redirect | undefined {
  if (response.type === "opaqueredirect") return { status: 0, locationOrigin: undefined, followed: false };
  if (response.status >= 300 && response.status < 400) {
    const locationOrigin = originOf(response.headers.get("location"), requestUrl);
    return { status: response.status, locationOrigin, followed: false };
  }
  if (response.redirected) return { status: 0, locationOrigin: originOf(response.url, requestUrl), followed: true };
  return undefined;
}

/**
 * Throws ExchangeRedirectError when `response` is a redirect, after cancelling its body (which frees the
 * connection). `redact` runs over the origin: it is server-supplied text.
 */
export function refuseRedirect(
  response: Response,
  requestUrl: string,
  operation: OperationRef,
  attempts: number,
  redact: (text: string) => string,
): void {
  const redirect = redirectOf(response, requestUrl);
  if (redirect === undefined) return;
  response.body?.cancel().catch(() => {});
  const locationOrigin = redirect.locationOrigin === undefined ? undefined : redact(redirect.locationOrigin);
  throw new ExchangeRedirectError({ ...redirect, locationOrigin }, operation, { attempts });
}
