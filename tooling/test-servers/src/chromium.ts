// Headless Chromium for the browser tests (the docs, the dashboard, the dashboard through nginx): the system's
// Chromium (Debian's /usr/bin/chromium), driven by playwright-core, which downloads no browser.
import { accessSync, constants } from "node:fs";
import { type Browser, chromium } from "playwright-core";

export const INSTALL_HINT =
  "Install Chromium to run it: `apt-get update && apt-get install -y chromium` (Debian/Ubuntu), or set CHROMIUM_PATH.";

/** The Chromium executable: $CHROMIUM_PATH when set (and only it), else the usual system locations. */
export function findChromium(): string | undefined {
  const candidates = process.env.CHROMIUM_PATH
    ? [process.env.CHROMIUM_PATH]
    : ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"];
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* next */
    }
  }
  return undefined;
}

/**
 * Launches headless Chromium from `executablePath`: no sandbox (containers and CI run as root), no GPU, and
 * nothing that reaches the network on its own (updates, sync, QUIC), so the run needs no internet.
 */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    timeout: 30_000,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
