// The dashboard session belongs to the dashboard's origin (scheme, host and port), in real headless Chromium.
// A page served by another port of the same host — on a shared staging host, any other service — can neither
// obtain the session (cookies are not scoped by port; the session is no cookie, and sessionStorage is per origin)
// nor replay it, and the cookies it sets ("cookie tossing", with the session token of an organization it
// controls) change nothing about what the dashboard shows. A session's live streams are capped.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../src/index.js";
import { Api, createCustomer, waitFor } from "../helpers.js";
import { findChromium, INSTALL_HINT, launchChromium } from "./chromium.js";
import { openDashboard } from "./session.js";

const chromium = findChromium();
const skipBrowser = !chromium && !process.env.CI;
if (skipBrowser) console.warn(`[dashboard origin test] Chromium not found: skipped. ${INSTALL_HINT}`);

const SESSION_KEY = "exchange-kit-dashboard-session";

/** Another service on another port of the same host: it logs what browsers send it and tosses cookies. */
async function otherService(sandboxPort: number, tossed: string) {
  const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
  const server: Server = createServer((req, res) => {
    seen.push({ path: req.url ?? "", headers: req.headers });
    if (!req.url?.startsWith("/_dashboard/attack")) return void res.writeHead(404).end();
    res.writeHead(200, {
      "Content-Type": "text/html",
      "Set-Cookie": [
        `exchange_kit_dashboard_${sandboxPort}=${tossed}; Path=/_dashboard`,
        `session=${tossed}; Path=/_dashboard/api`,
        `token=${tossed}; Path=/`,
      ],
    });
    res.end(`<!doctype html><title>Another service</title>
<img src="/_dashboard/api/records?kind=customers" alt="">`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { port, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe.skipIf(skipBrowser)("the dashboard session in Chromium, against another port of the host", () => {
  let browser: Browser;
  let sandbox: Sandbox;
  let context: BrowserContext;
  let dashboard: Page;

  beforeAll(async () => {
    if (!chromium) throw new Error(`Chromium is required on CI for the dashboard test. ${INSTALL_HINT}`);
    browser = await launchChromium(chromium);
    sandbox = await createSandbox({
      organizations: [
        { name: "Victim Org", apiKey: "key_origin_a", apiSecret: "secret_origin_a" },
        { name: "Attacker Org", apiKey: "key_origin_b", apiSecret: "secret_origin_b" },
      ],
      autoProgressMs: false,
    });
    context = await browser.newContext();
    context.setDefaultTimeout(8000);
    dashboard = await context.newPage();
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  it("can neither obtain nor replay the session, and its tossed cookies change nothing the dashboard shows", async () => {
    const victims = await createCustomer(new Api(sandbox, { apiKey: "key_origin_a", apiSecret: "secret_origin_a" }), {
      full_name: "Victim Customer",
    });
    await createCustomer(new Api(sandbox, { apiKey: "key_origin_b", apiSecret: "secret_origin_b" }), {
      full_name: "Attacker Customer",
    });
    await dashboard.goto(sandbox.dashboard[0]!.url);
    await dashboard.locator("td", { hasText: victims.id }).first().waitFor();
    const token = await dashboard.evaluate((key) => sessionStorage.getItem(key), SESSION_KEY);
    expect(token).toMatch(/^[\w-]{43}$/);

    // The attacker's own organization's session, tossed as cookies by the other port.
    const attackers = await openDashboard(sandbox, 1);
    const other = await otherService(sandbox.port, attackers.token);
    try {
      const attack = await context.newPage();
      await attack.goto(`http://127.0.0.1:${other.port}/_dashboard/attack`);
      await waitFor(() => other.seen.some((r) => r.path.startsWith("/_dashboard/api/")), "the image request");
      // Obtain: nothing the browser sent the other port carries the session; its page cannot read it.
      expect(JSON.stringify(other.seen)).not.toContain(token);
      expect(await attack.evaluate((key) => sessionStorage.getItem(key), SESSION_KEY)).toBeNull();
      expect(await attack.evaluate(() => document.cookie)).not.toContain(token);
      // Replay: what it captured (its cookies, its Authorization, if any) opens nothing on the sandbox.
      for (const { headers } of other.seen) {
        const replayed = await fetch(`${sandbox.url}/_dashboard/api/records?kind=customers`, {
          headers: { ...(headers.cookie ? { cookie: headers.cookie } : {}) },
        });
        expect(replayed.status).toBe(401);
      }
      // Tossing: the browser now holds the other port's cookies for the dashboard's paths, and the dashboard
      // still shows its own organization only.
      const cookies = await context.cookies(`${sandbox.url}/_dashboard/api/records`);
      expect(cookies.map((c) => c.value)).toContain(attackers.token);
      await dashboard.reload();
      await dashboard.locator("td", { hasText: victims.id }).first().waitFor();
      expect(await dashboard.locator("#organization").textContent()).toBe("Victim Org");
      expect(await dashboard.content()).not.toContain("Attacker Customer");
      await attack.close();
    } finally {
      await other.close();
    }
  });

  it("caps a session's live streams: the page's own and three more, then 429 until one closes", async () => {
    await dashboard.locator("#live", { hasText: "Live" }).waitFor();
    const statuses = await dashboard.evaluate(async (key) => {
      const headers = { Authorization: `Bearer ${sessionStorage.getItem(key)}` };
      const readers = Array.from({ length: 4 }, () => new AbortController());
      const opened = [];
      for (const reader of readers)
        opened.push((await fetch("/_dashboard/api/stream", { headers, signal: reader.signal })).status);
      readers[0]?.abort();
      // The server counts a stream off once it sees its socket close: asked again until it has.
      let after = 0;
      for (let tries = 0; tries < 50 && after !== 200; tries++) {
        const again = new AbortController();
        readers.push(again);
        after = (await fetch("/_dashboard/api/stream", { headers, signal: again.signal })).status;
        if (after !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      for (const reader of readers) reader.abort();
      return { opened, after };
    }, SESSION_KEY);
    expect(statuses).toEqual({ opened: [200, 200, 200, 429], after: 200 });
    expect(await dashboard.locator("#live").textContent()).toBe("Live");
  });
});
