/**
 * Throws when running in what looks like a browser. An API secret shipped
 * to a browser or mobile app can be read by anyone who opens it, so this
 * is opt-out, never silent.
 */
export function assertNotBrowser(dangerouslyAllowBrowser: boolean | undefined): void {
  if (dangerouslyAllowBrowser === true) return;
  const g = globalThis as { window?: unknown; document?: unknown };
  if (typeof g.window !== "undefined" && typeof g.document !== "undefined") {
    throw new Error(
      "@exchange-kit/signing: refusing to sign in a browser: the API secret must never be in a browser " +
        "or mobile app, where anyone can read it. Sign requests on your server instead. " +
        "If this code runs somewhere trusted that defines window and document (a jsdom test, for example), " +
        "pass dangerouslyAllowBrowser: true if you accept that risk.",
    );
  }
}
