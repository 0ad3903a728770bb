// `pnpm docs` (scripts/build-docs.mjs): one self-contained reference page plus the guides, rendered in headless
// Chromium (playwright-core driving the system's Chromium) to check what a reader sees: a section for every
// operation and webhook of the spec, and beside every operation its code samples, one TypeScript and one curl
// sample per request example.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CodeSample } from "../code-samples/samples.ts";
import { findChromium, INSTALL_HINT, launchChromium } from "./chromium.js";
import { bundleSpec, operationsOf, repoRoot, specRoot } from "./helpers.js";
import {
  alternativeNames,
  exampleMenu,
  openSection,
  requestSamplesPanel,
  sampleMenu,
  sectionId,
  sectionTitle,
  showSample,
} from "./reference-page.js";

const chromium = findChromium();
const inCI = Boolean(process.env.CI);
const skipBrowser = !chromium && !inCI;
if (skipBrowser) console.warn(`[docs.test] Chromium not found: the rendering test is skipped. ${INSTALL_HINT}`);

const out = mkdtempSync(join(tmpdir(), "exchange-kit-reference-"));
const referenceFile = join(out, "index.html");
const screenshotPath = join(repoRoot, "openapi", "test-results", "reference-payout-quotation.png");
const guideNames = readdirSync(join(repoRoot, "docs", "guides"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => basename(f, ".md"));

// The spec as the reference gets it: bundled with redocly.yaml, whose decorator adds each operation's x-codeSamples.
const operations = operationsOf(bundleSpec(specRoot));
const samplesOf = (operation: any): CodeSample[] => operation["x-codeSamples"] ?? [];
const withSamples = operations.filter((o) => samplesOf(o.operation).length > 0);
const idOf = (o: (typeof operations)[number]) => sectionId(o.tags[0] ?? "", o.operationId);
/** Code as text, line by line without trailing blanks (the page's code block keeps the lines as they are). */
const lines = (code: string) => code.replace(/[ \t]+$/gm, "").trim();

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
    const html = readFileSync(referenceFile, "utf8");
    expect(html).toMatch(/<div id="redoc">/);
    // No external script or stylesheet: the page must work offline.
    expect(html).not.toMatch(/<script[^>]*\ssrc=["']?https?:/i);
    expect(html).not.toMatch(/<link[^>]*\shref=["']?https?:/i);
    expect(html).not.toMatch(/import\s*\{[^}]*\}\s*from\s*["']https?:/);
    // Prerendered: the text is there even before the script runs.
    expect(html).toContain("Exchange Service API");
  });

  it("renders the README and every guide to HTML beside it, linked from the reference header", () => {
    const html = readFileSync(referenceFile, "utf8");
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

  it("writes the sandbox's reference beside the service's, titled and bannered as the sandbox's", () => {
    const service = readFileSync(referenceFile, "utf8");
    const sandbox = readFileSync(join(out, "sandbox", "index.html"), "utf8");
    expect(sandbox).toMatch(/<div id="redoc">/);
    expect(sandbox).not.toMatch(/<script[^>]*\ssrc=["']?https?:/i);
    expect(sandbox).toContain("Exchange Service API: the local sandbox");
    expect(sandbox).toContain("The local sandbox's reference");
    expect(service).not.toContain("the local sandbox");
    // The overlay is applied: the sandbox's webhook URL rule takes http:// on loopback, the service's does not.
    expect(sandbox).toContain("127\\\\.0\\\\.0\\\\.1");
    expect(service).not.toContain("127\\\\.0\\\\.0\\\\.1");
  });

  it("links the two references to each other and the guides to both", () => {
    const service = readFileSync(referenceFile, "utf8");
    const sandbox = readFileSync(join(out, "sandbox", "index.html"), "utf8");
    expect(service).toContain('href="sandbox/index.html"');
    expect(sandbox).toContain('href="../index.html"');
    expect(sandbox).toContain('href="../guides/sandbox-in-depth.html"');
    const guide = readFileSync(join(out, "guides", "sandbox-in-depth.html"), "utf8");
    expect(guide).toContain('href="../sandbox/index.html"');
  });
});

describe("the reference's inputs", () => {
  it("carry code samples for every operation of the paths: one TypeScript and one curl sample per request example", () => {
    const paths = operations.filter((o) => o.kind === "path");
    expect(paths.length).toBeGreaterThan(0);
    expect(withSamples.map((o) => o.operationId)).toEqual(paths.map((o) => o.operationId));
    for (const o of withSamples) {
      const langs = samplesOf(o.operation).map((s) => s.lang);
      const typescript = langs.filter((l) => l === "TypeScript").length;
      expect(typescript, o.operationId).toBeGreaterThan(0);
      expect(langs.filter((l) => l === "curl").length, o.operationId).toBe(typescript);
    }
  });
});

describe.skipIf(skipBrowser)("pnpm docs: rendered in headless Chromium", () => {
  let browser: Browser | undefined;
  let page: Page;

  beforeAll(async () => {
    if (!chromium) throw new Error(`Chromium is required on CI for the docs test and was not found. ${INSTALL_HINT}`);
    browser = await launchChromium(chromium);
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    // A missing element fails its step in seconds, not after Playwright's default 30 s.
    page.setDefaultTimeout(10_000);
    await page.goto(pathToFileURL(referenceFile).href);
    await page.locator("#api-content").waitFor({ timeout: 30_000 });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("shows the header that links the reference to the guides", async () => {
    await expect(page.locator('nav.ek-nav a[href="guides/index.html"]').isVisible()).resolves.toBe(true);
  });

  it("covers the webhooks of the spec as well as its paths", () => {
    expect(operations.some((o) => o.kind === "webhook")).toBe(true);
    expect(operations.some((o) => o.kind === "path")).toBe(true);
  });

  // One test per operation, so that each gets its own time budget (a busy CI machine renders a section in seconds,
  // not the 0.2 s it takes here) and a failure names the operation.
  it.each(operations.map((o) => [o.kind, o.operationId, o] as const))(
    "shows the section of %s %s titled with its summary",
    async (_kind, _id, o) => {
      const title = await sectionTitle(await openSection(page, idOf(o)));
      expect(title.startsWith(o.summary), `#${idOf(o)}: "${title}"`).toBe(true);
    },
  );

  it("names createCustomer's two body alternatives by the names the spec gives them", async () => {
    const o = operations.find((op) => op.operationId === "createCustomer")!;
    expect(await alternativeNames(await openSection(page, idOf(o)))).toEqual(
      expect.arrayContaining(["With full_name", "With first_name and last_name"]),
    );
  });

  it.each(operations.map((o) => [o.operationId, o] as const))(
    "names the body alternatives of %s by what they are, never by a bare type such as `object (2)`",
    async (_id, o) => {
      const bare = /^(object|array|string|Array of objects)( \(\d+\))?$/;
      const names = await alternativeNames(await openSection(page, idOf(o)));
      expect(names.filter((n) => bare.test(n))).toEqual([]);
    },
  );

  it.each(withSamples.map((o) => [o.operationId, o] as const))(
    "shows every code sample of %s in the right panel: its language menu lists them and each shows its code",
    async (_id, o) => {
      const samples = samplesOf(o.operation);
      const panel = requestSamplesPanel(await openSection(page, idOf(o)));
      // Redoc adds the JSON payload of the request body, when there is one, as a last "language".
      const payload = o.operation.requestBody ? ["Payload"] : [];
      expect(new Set(await sampleMenu(panel))).toEqual(new Set([...samples.map((s) => s.label), ...payload]));
      for (const sample of samples) {
        expect(lines(await showSample(panel, sample.label)), `${o.operationId}: ${sample.label}`).toBe(
          lines(sample.source),
        );
      }
    },
  );

  it("offers the example menu with the payload only, since each TypeScript or curl sample is one example's", async () => {
    const o = operations.find((op) => op.operationId === "createPayoutQuotation")!;
    const panel = requestSamplesPanel(await openSection(page, idOf(o)));
    for (const sample of samplesOf(o.operation)) {
      await showSample(panel, sample.label);
      await expect(exampleMenu(panel).isVisible(), sample.label).resolves.toBe(false);
    }
    await showSample(panel, "Payload");
    await exampleMenu(panel).waitFor({ state: "visible" });
    const first: any = Object.values(o.operation.requestBody.content["application/json"].examples)[0];
    expect((await exampleMenu(panel).textContent())?.trim()).toBe(first.summary);
  });

  it("saves a screenshot of createPayoutQuotation with the TypeScript sample of its first example in view", async () => {
    const o = operations.find((op) => op.operationId === "createPayoutQuotation");
    expect(o).toBeDefined();
    const section = await openSection(page, idOf(o!));
    const first = samplesOf(o!.operation)[0]!;
    expect(first.label).toMatch(/^TypeScript \(/);
    const code = await showSample(requestSamplesPanel(section), first.label);
    expect(code).toContain("await client.payouts.createQuotation({");
    await section.evaluate((el) => el.scrollIntoView({ block: "start" }));
    mkdirSync(join(repoRoot, "openapi", "test-results"), { recursive: true });
    const png = await page.screenshot({ path: screenshotPath });
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  });
});
