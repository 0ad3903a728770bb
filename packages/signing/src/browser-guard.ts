/**
 * Throws in what looks like a browser. An API secret shipped to a browser
 * or mobile app can be read by anyone using it, so signing there is opt-in.
 */
export function assertNotBrowser(dangerouslyAllowBrowser: boolean | undefined): void {
  const g = globalThis as { window?: unknown; document?: unknown };
  if (dangerouslyAllowBrowser !== true && g.window !== undefined && g.document !== undefined) {
    throw new Error(
      "Refusing to sign in a browser: the API secret must never be in a browser or mobile app, where users can read it; " +
        "sign on your server. If this is a trusted environment with window and document (a jsdom test, say), " +
        "pass dangerouslyAllowBrowser: true if you accept that risk.",
    );
  }
}
