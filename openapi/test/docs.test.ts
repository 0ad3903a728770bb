// `pnpm docs` (scripts/build-docs.mjs): one self-contained reference page plus the guides, rendered in headless
// Chromium to check that every operation and webhook of the spec has its section.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, findChromium, INSTALL_HINT } from "./chromium.js";
import { bundleSpec, operationsOf, repoRoot, specRoot } from "./helpers.js";

const chromium = findChromium();
const inCI = Boolean(process.env.CI);
const skipBrowser = !chromium && !inCI;
if (skipBrowser) console.warn(`[docs.test] Chromium not found: the rendering test is skipped. ${INSTALL_HINT}`);

const out = mkdtempSync(join(tmpdir(), "exchange-kit-reference-"));
const page = join(out, "index.html");
const screenshotPath = join(repoRoot, "openapi", "test-results", "reference.png");
const guideNames = readdirSync(join(repoRoot, "docs", "guides"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => basename(f, ".md"));

/** Redoc 3 (Redocly CLI 2's build-docs) gives each operation's section the id `<tag slug>/<operationid in lower case>`. */
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
const sectionId = (tag: string, operationId: string) => `${slug(tag)}/${operationId.toLowerCase()}`;

beforeAll(() => {
  const run = spawnSync(process.execPath, [join(repoRoot, "scripts", "build-docs.mjs"), "--out", out], {
    cwd: repoRoot,
    encoding: "utf8",
    timeout: 120_000,
  });
  expect(run.status, `build-docs failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
}, 130_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("pnpm docs: the built files", () => {
  it("writes one self-contained reference page: Redoc inlined, nothing loaded from a CDN", () => {
    const html = readFileSync(page, "utf8");
    expect(html).toMatch(/<div id="redoc">/);
    // No external script or stylesheet: the page must work offline.
    expect(html).not.toMatch(/<script[^>]*\ssrc=["']?https?:/i);
    expect(html).not.toMatch(/<link[^>]*\shref=["']?https?:/i);
    expect(html).not.toMatch(/import\s*\{[^}]*\}\s*from\s*["']https?:/);
    // Prerendered: the text is there even before the script runs.
    expect(html).toContain("Exchange Service API");
  });

  it("renders the README and every guide to HTML beside it, linked from the reference header", () => {
    const html = readFileSync(page, "utf8");
    expect(existsSync(join(out, "guides", "index.html"))).toBe(true);
    expect(html).toContain('href="guides/index.html"');
    for (const name of guideNames) {
      const file = join(out, "guides", `${name}.html`);
      expect(existsSync(file), `${name}.html`).toBe(true);
      expect(html).toContain(`href="guides/${name}.html"`);
      const guide = readFileSync(file, "utf8");
      expect(guide).toMatch(/<h1[^>]*>[^<]+<\/h1>/);
      expect(guide).toContain('href="../index.html"'); // back to the reference
    }
    const index = readFileSync(join(out, "guides", "index.html"), "utf8");
    // Links between the Markdown files point at the rendered pages.
    for (const name of guideNames) expect(index).toContain(`href="${name}.html"`);
    expect(index).not.toMatch(/href="[^":]*\.md(#[^"]*)?"/);
  });
});

describe.skipIf(skipBrowser)("pnpm docs: rendered in headless Chromium", () => {
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
  });

  it("shows a section for every operation and every webhook of the spec, and saves a screenshot", async () => {
    if (!chromium) throw new Error(`Chromium is required on CI for the docs test and was not found. ${INSTALL_HINT}`);
    const operations = operationsOf(bundleSpec(specRoot));
    expect(operations.filter((o) => o.kind === "path").length).toBeGreaterThan(0);

    browser = await Browser.launch(chromium, { width: 1280, height: 2400, lifetimeMs: 90_000 });
    const url = pathToFileURL(page).href;
    await browser.navigate(url);
    const started = await browser.evaluate<boolean>(`(async () => {
      for (let i = 0; i < 300; i++) {
        if (document.readyState === 'complete' && document.getElementById('api-content')) return true;
        await new Promise((r) => setTimeout(r, 50));
      }
      return false;
    })()`);
    expect(started, "the reference app rendered #api-content").toBe(true);
    expect(await browser.evaluate<boolean>(`!!document.querySelector('nav.ek-nav a[href="guides/index.html"]')`)).toBe(
      true,
    );

    // Redoc 3 renders operations lazily (as they scroll into view), one route per operation: open each route
    // and wait for its section.
    const ids = operations.map((o) => sectionId(o.tags[0] ?? "", o.operationId));
    const found = await browser.evaluate<Record<string, string | null>>(
      `(async (ids) => {
        const found = {};
        for (const id of ids) {
          location.hash = '#/' + id;
          let el = null;
          for (let i = 0; i < 100 && !el; i++) {
            el = document.getElementById(id);
            if (!el) await new Promise((r) => setTimeout(r, 50));
          }
          found[id] = el ? el.textContent.replace(/\\s+/g, ' ').slice(0, 300) : null;
        }
        return found;
      })(${JSON.stringify(ids)})`,
      60_000,
    );
    const missing: string[] = [];
    for (const [index, op] of operations.entries()) {
      const id = ids[index] ?? "";
      const text = found[id];
      if (!text?.includes(op.summary)) {
        missing.push(
          `${op.kind} ${op.operationId} (#${id}): ${text ? `summary "${op.summary}" not shown` : "no section"}`,
        );
      }
    }
    expect(missing.join("\n")).toBe("");
    expect(
      operations.filter((o) => o.kind === "webhook").every((o) => found[sectionId(o.tags[0] ?? "", o.operationId)]),
    ).toBe(true);

    // Code samples beside each operation (x-codeSamples, merged from the generated file at docs time): the
    // TypeScript client call is shown first; the language menu offers the curl sample with `exchange-kit sign`.
    const createId = sectionId("Customers", "createCustomer");
    const samples = await browser.evaluate<string[]>(
      `(async () => {
        const sleep = () => new Promise((r) => setTimeout(r, 50));
        const text = () => document.getElementById('api-content')?.textContent ?? '';
        const seen = [];
        location.hash = '#/${createId}';
        for (let i = 0; i < 100 && !text().includes('client.customers.create('); i++) await sleep();
        if (text().includes('client.customers.create(')) seen.push('typescript');
        const menu = [...document.querySelectorAll('button[aria-haspopup="menu"]')].find((b) => b.textContent.trim() === 'TypeScript');
        if (!menu) return seen;
        menu.click();
        let item;
        for (let i = 0; i < 60 && !item; i++) {
          item = [...document.querySelectorAll('[role="menuitem"]')].find((e) => e.textContent.trim() === 'curl');
          if (!item) await sleep();
        }
        if (!item) return seen;
        item.click();
        for (let i = 0; i < 60 && !text().includes('exchange-kit sign --method POST'); i++) await sleep();
        if (text().includes('exchange-kit sign --method POST')) seen.push('curl');
        return seen;
      })()`,
      30_000,
    );
    expect(samples).toEqual(["typescript", "curl"]);

    // The overview, as a reader first sees it.
    await browser.navigate(url);
    await browser.evaluate(`(async () => {
      for (let i = 0; i < 300 && !document.getElementById('api-content'); i++) await new Promise((r) => setTimeout(r, 50));
      await document.fonts.ready;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    })()`);
    const png = await browser.screenshot();
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    mkdirSync(join(repoRoot, "openapi", "test-results"), { recursive: true });
    writeFileSync(screenshotPath, png);
  }, 120_000);
});
