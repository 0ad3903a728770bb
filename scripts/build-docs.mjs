#!/usr/bin/env node
// Builds the API reference as ONE self-contained HTML file (Redoc, inlined: no CDN, works offline) and the
// Markdown guides as HTML pages beside it:
//
//   docs/reference/index.html          the reference (redocly build-docs --inlineBundle), with a header
//                                      linking to the guides
//   docs/reference/sandbox/index.html  the local sandbox's reference: the same bundle with the sandbox's overlay
//                                      (openapi/overlays/sandbox.yaml) applied, under a banner that says whose it is
//   docs/reference/guides/index.html   docs/README.md
//   docs/reference/guides/getting-started.html   docs/getting-started.md
//   docs/reference/guides/<name>.html  docs/guides/<name>.md (and docs/gaps.md when it exists)
//
// Usage: node scripts/build-docs.mjs [--spec openapi/openapi.yaml] [--out docs/reference]
// Paths are relative to the repository root. docs/reference/ is git-ignored.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
// The overlay is applied as the spec package's build applies it (openapi-format), to the decorated bundle.
import { applySandboxOverlay } from "../openapi/scripts/overlay.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

const { values: args } = parseArgs({
  options: {
    spec: { type: "string", default: "openapi/openapi.yaml" },
    out: { type: "string", default: "docs/reference" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (args.help) {
  console.log("Usage: node scripts/build-docs.mjs [--spec openapi/openapi.yaml] [--out docs/reference]");
  process.exit(0);
}

const spec = resolve(root, args.spec);
const out = resolve(root, args.out);
const guidesOut = join(out, "guides");

// `marked` is a devDependency of @exchange-kit/openapi (this script belongs to that package's tooling).
const requireFromOpenapi = createRequire(join(root, "openapi", "package.json"));
const { Marked } = await import(pathToFileURL(requireFromOpenapi.resolve("marked")).href);

/** The Markdown sources, in navigation order: README first, then the guides, then the gaps list. */
function guideSources() {
  const docs = join(root, "docs");
  const list = [];
  if (existsSync(join(docs, "README.md"))) list.push({ src: join(docs, "README.md"), name: "index" });
  if (existsSync(join(docs, "getting-started.md")))
    list.push({ src: join(docs, "getting-started.md"), name: "getting-started" });
  const guidesDir = join(docs, "guides");
  if (existsSync(guidesDir)) {
    const order = ["authentication", "errors-and-retries", "webhooks", "mock", "contract-testing"];
    const names = readdirSync(guidesDir)
      .filter((f) => f.endsWith(".md"))
      .map((f) => basename(f, ".md"))
      .sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99) || a.localeCompare(b));
    for (const name of names) list.push({ src: join(guidesDir, `${name}.md`), name });
  }
  if (existsSync(join(docs, "gaps.md"))) list.push({ src: join(docs, "gaps.md"), name: "gaps" });
  for (const page of list) {
    const text = readFileSync(page.src, "utf8");
    page.markdown = text;
    page.title = (/^#\s+(.+)$/m.exec(text)?.[1] ?? page.name).replace(/[`*_]/g, "").trim();
  }
  return list;
}

const escapeHtml = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

const NAV_CSS = `
  .ek-nav { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #1f2937; color: #e5e7eb;
            padding: 8px 16px; display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: center; }
  .ek-nav a { color: #e5e7eb; text-decoration: none; }
  .ek-nav a:hover, .ek-nav a[aria-current="page"] { color: #fff; text-decoration: underline; }
  .ek-nav .ek-brand { font-weight: 600; margin-right: 8px; }`;

/** The header shared by the references and the guides. `prefix` leads from the page to docs/reference/. */
function nav(pages, prefix, current) {
  const links = [
    `<a class="ek-brand" href="${prefix}index.html"${current === "reference" ? ' aria-current="page"' : ""}>API reference</a>`,
    `<a href="${prefix}sandbox/index.html"${current === "sandbox" ? ' aria-current="page"' : ""}>Sandbox reference</a>`,
  ];
  for (const page of pages) {
    const here = current === page.name ? ' aria-current="page"' : "";
    links.push(
      `<a href="${prefix}guides/${page.name}.html"${here}>${escapeHtml(page.name === "index" ? "Guides" : page.title)}</a>`,
    );
  }
  return `<nav class="ek-nav" aria-label="Documentation">${links.join("\n")}</nav>`;
}

function renderGuides(pages) {
  mkdirSync(guidesOut, { recursive: true });
  // Pictures the guides embed (made by test runs: traces, screenshots) go beside the pages, at the same relative path.
  const images = join(root, "docs", "guides", "images");
  if (existsSync(images)) cpSync(images, join(guidesOut, "images"), { recursive: true });
  const outputOf = new Map(pages.map((p) => [resolve(p.src), `${p.name}.html`]));
  for (const page of pages) {
    const marked = new Marked({ gfm: true });
    marked.use({
      walkTokens(token) {
        // Links between the Markdown sources point at their HTML pages; other relative links are left alone.
        if (token.type !== "link" || /^[a-z][a-z0-9+.-]*:|^#|^\//i.test(token.href)) return;
        const [path, hash] = token.href.split("#");
        const target = outputOf.get(resolve(dirname(page.src), decodeURI(path)));
        if (target) token.href = target + (hash ? `#${hash}` : "");
      },
    });
    const body = marked.parse(page.markdown);
    const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · Exchange Service API</title>
<style>${NAV_CSS}
  body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #111827; }
  main { max-width: 860px; margin: 0 auto; padding: 16px 24px 64px; }
  pre, code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
  pre { background: #f3f4f6; padding: 12px 16px; overflow-x: auto; border-radius: 6px; }
  :not(pre) > code { background: #f3f4f6; padding: 1px 4px; border-radius: 4px; }
  td code { white-space: nowrap; }
  table { border-collapse: collapse; margin: 12px 0; }
  th, td { border: 1px solid #d1d5db; padding: 4px 10px; text-align: left; vertical-align: top; }
  th { background: #f9fafb; }
  a { color: #1d4ed8; }
  img { max-width: 100%; height: auto; }
</style>
</head>
<body>
${nav(pages, "../", page.name)}
<main>
${body}
</main>
</body>
</html>
`;
    writeFileSync(join(guidesOut, `${page.name}.html`), html);
  }
}

// Redoc's example menu sits above every request sample but switches only the JSON payload. A TypeScript or curl
// sample is one example's (its label and first comment name it), so beside one the menu would offer a choice that
// changes nothing: it shows with the payload only.
const EXAMPLE_MENU_CSS = `
  .panel-request-samples [data-testid="panel-body"]:has(pre code:not([data-language="json"]))
    > div:has(> [data-testid="dropdown"] > button[aria-label="Example"]) { display: none; }`;

/** What the sandbox's reference says above the page: whose spec it is, how it differs, where the service's is. */
const SANDBOX_BANNER = `<p class="ek-banner" role="note"><strong>The local sandbox's reference</strong>
  (<code>exchange-kit sandbox</code>), not the service's contract: the service's spec with the sandbox's own rules
  applied (<code>openapi/overlays/sandbox.yaml</code>). The sandbox requires some members the interface leaves open
  (<code>x-sandbox-required</code>), reads a few query parameters of its own, refuses blank values, and takes a
  webhook URL on <code>http://</code> loopback (127.0.0.1, localhost, [::1]) as well as <code>https://</code>.
  For the real service read the <a href="../index.html">API reference</a>.</p>`;

const BANNER_CSS = `
  .ek-banner { font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; padding: 8px 16px;
               background: #fef3c7; color: #78350f; border-bottom: 1px solid #f59e0b; }
  .ek-banner a { color: #1d4ed8; }`;

/** A copy of Redocly's default page template with our header above the reference (the sandbox's: and its banner). */
function referenceTemplate(pages, current = "reference") {
  const sandbox = current === "sandbox";
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf8" />
  <title>{{title}}</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <style>
    body { padding: 0; margin: 0; }${NAV_CSS}${EXAMPLE_MENU_CSS}${sandbox ? BANNER_CSS : ""}
  </style>
  {{{redocHead}}}
</head>
<body>
  ${nav(pages, sandbox ? "../" : "", current)}${sandbox ? `\n  ${SANDBOX_BANNER}` : ""}
  {{{redocHTML}}}
</body>
</html>
`;
}

/** Runs the Redocly CLI (the root devDependency) from the repository root; throws on failure. */
function redocly(args) {
  const cli = join(root, "node_modules", "@redocly", "cli", "bin", "cli.js");
  const run = spawnSync(process.execPath, [cli, ...args], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`redocly ${args[0]} exited with ${run.status ?? run.signal}`);
}

/**
 * The languages of the reference's code-sample menu: every x-codeSamples label of the bundle (all TypeScript
 * samples, then all curl samples, each in the spec's order), then the JSON payload. Redoc shows a sample only
 * when its label is a listed language, so an operation with several request examples (one sample per example,
 * labelled `TypeScript (bySendingAmount)`) needs its labels listed: a fixed list in redocly.yaml would hide them.
 */
function sampleLanguages(bundle) {
  const labels = new Map();
  for (const item of Object.values(bundle.paths ?? {})) {
    for (const operation of Object.values(item ?? {})) {
      for (const sample of operation?.["x-codeSamples"] ?? []) {
        if (!labels.has(sample.lang)) labels.set(sample.lang, new Set());
        labels.get(sample.lang).add(sample.label ?? sample.lang);
      }
    }
  }
  const languages = [...labels].flatMap(([lang, set]) => [...set].map((label) => ({ lang, label })));
  return [...languages, { lang: "Payload" }];
}

/**
 * Bundles the spec with redocly.yaml (its decorators add the code samples), then builds the page from the bundle
 * with a config of the reference's own: telemetry off, and the code-sample languages the bundle carries.
 */
async function buildReferences(pages) {
  const work = mkdtempSync(join(tmpdir(), "exchange-kit-docs-"));
  try {
    const bundled = join(work, "openapi.json");
    redocly(["bundle", spec, "--ext=json", `--output=${bundled}`, `--config=${join(root, "redocly.yaml")}`]);
    const document = JSON.parse(readFileSync(bundled, "utf8"));
    const config = join(work, "redocly.yaml");
    // JSON is YAML. No usage data leaves the machine, from the CLI or the built page: readers may be offline.
    const options = { codeSamples: { languages: sampleLanguages(document) } };
    writeFileSync(config, JSON.stringify({ telemetry: "off", openapi: options }, null, 2));
    buildPage(work, pages, "reference", bundled, join(out, "index.html"), config);
    const sandbox = join(work, "sandbox-openapi.json");
    writeFileSync(sandbox, JSON.stringify(await applySandboxOverlay(document)));
    mkdirSync(join(out, "sandbox"), { recursive: true });
    buildPage(work, pages, "sandbox", sandbox, join(out, "sandbox", "index.html"), config);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** One reference page (`current`: reference or sandbox) from a bundled spec. */
function buildPage(work, pages, current, bundled, output, config) {
  const template = join(work, `${current}.hbs`);
  writeFileSync(template, referenceTemplate(pages, current));
  redocly([
    "build-docs",
    bundled,
    `--output=${output}`,
    `--template=${template}`,
    // Embed Redoc itself: the default loads it from a CDN, and readers may be offline.
    "--inlineBundle",
    `--config=${config}`,
  ]);
}

try {
  mkdirSync(out, { recursive: true });
  const pages = guideSources();
  renderGuides(pages);
  await buildReferences(pages);
  const shown = (p) => relative(process.cwd(), p) || ".";
  console.log(`Reference: ${shown(join(out, "index.html"))}`);
  console.log(`Sandbox:   ${shown(join(out, "sandbox", "index.html"))}`);
  console.log(`Guides:    ${pages.map((p) => shown(join(guidesOut, `${p.name}.html`))).join(", ")}`);
} catch (error) {
  console.error(`build-docs failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
