// node --test 'scripts/release-check/*.test.mjs': the README rules and the install measure of the release check.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { budgetVerdict, installSize } from "./install-size.mjs";
import { runnableSnippets } from "./readme-runs.mjs";
import {
  checkPage,
  codeBlocks,
  importsOf,
  installedBy,
  otherInstallLines,
  packageName,
  relativeLinks,
  shadowedScripts,
} from "./readmes.mjs";

const page = [
  "# pkg",
  "```sh",
  "npm install @exchange-kit/webhook-verify express   # the receiver",
  "npm install -D @types/express@5",
  "pnpm add hono",
  "```",
  "```ts",
  'import express from "express";',
  'import type { ReceivedWebhookEvent } from "@exchange-kit/webhook-verify";',
  'import { createNodeWebhookHandler } from "@exchange-kit/webhook-verify/node";',
  'import "./polyfill.js";',
  "```",
  "See [the spec](../../openapi/openapi.yaml), [errors](#errors) and [the repo](https://github.com/exchange-kit/exchange-kit).",
].join("\n");

test("finds fenced blocks with their language and first code line", () => {
  const blocks = codeBlocks(page);
  assert.deepEqual(
    blocks.map((b) => [b.lang, b.line]),
    [
      ["sh", 3],
      ["ts", 8],
    ],
  );
});

test("reads the run and file markers in either order above a block", () => {
  const marked = [
    "<!-- readme-test: run -->",
    "<!-- file: first-call.ts -->",
    "```ts",
    "a();",
    "```",
    "<!-- file: second.ts -->",
    "<!-- readme-test: run -->",
    "```ts",
    "b();",
    "```",
    "<!-- file: third.ts -->",
    "",
    "```ts",
    "c();",
    "```",
  ].join("\n");
  assert.deepEqual(
    codeBlocks(marked).map((b) => [b.code, b.run, b.file]),
    [
      ["a();", true, "first-call.ts"],
      ["b();", true, "second.ts"],
      ["c();", false, undefined],
    ],
  );
});

test("marks a block the run marker precedes, and only that one", () => {
  const marked = ["```ts", "a();", "```", "<!-- readme-test: run -->", "```ts", "b();", "```"].join("\n");
  assert.deepEqual(
    codeBlocks(marked).map((b) => [b.code, b.run]),
    [
      ["a();", false],
      ["b();", true],
    ],
  );
  assert.deepEqual(
    checkPage("packages/client/README.md", marked).snippets.map((s) => [s.file, s.run]),
    [
      ["packages_client_README_md_L2.ts", false],
      ["packages_client_README_md_L6.ts", true],
    ],
  );
});

test("keeps the name a file marker gives a block, in its page's folder, so blocks can import each other", () => {
  const named = [
    "<!-- file: test/guide/setup.ts -->",
    "```ts",
    "export const ready = 1;",
    "```",
    "```ts",
    'import { ready } from "./setup.js";',
    "```",
  ].join("\n");
  assert.deepEqual(
    checkPage("docs/guides/failures.md", named).snippets.map((s) => s.file),
    ["docs_guides_failures_md/setup.ts", "docs_guides_failures_md_L6.ts"],
  );
});

test("runs the client's marked examples (README, then its guide), then the getting-started page's, last", () => {
  const root = join(import.meta.dirname, "..", "..");
  const files = runnableSnippets(root);
  const readme = files.filter((f) => f.startsWith("packages_client_README_md_L"));
  const guide = files.filter((f) => f.startsWith("docs_guides_client-in-depth_md_L"));
  assert.ok(readme.length >= 1 && guide.length >= 3, files.join(", "));
  assert.deepEqual(files, [
    ...readme,
    ...guide,
    "docs_getting-started_md/first-call.ts",
    "docs_getting-started_md/webhook.ts",
  ]);
});

test("reads the packages an npm install line names, without flags, versions or comments", () => {
  assert.deepEqual([...installedBy(codeBlocks(page))].sort(), [
    "@exchange-kit/webhook-verify",
    "@types/express",
    "express",
  ]);
});

test("flags install lines of another convention", () => {
  assert.deepEqual(otherInstallLines(codeBlocks(page)), [{ line: 5, text: "pnpm add hono" }]);
});

test("lists the modules a block imports, type-only and side-effect imports included", () => {
  const ts = codeBlocks(page)[1].code;
  assert.deepEqual(importsOf(ts), [
    "express",
    "@exchange-kit/webhook-verify",
    "@exchange-kit/webhook-verify/node",
    "./polyfill.js",
  ]);
  assert.equal(packageName("@exchange-kit/webhook-verify/node"), "@exchange-kit/webhook-verify");
  assert.equal(packageName("hono/cors"), "hono");
});

test("flags relative links, which are dead on the registry's page, and keeps anchors and absolute links", () => {
  assert.deepEqual(relativeLinks(page), [{ line: 13, target: "../../openapi/openapi.yaml" }]);
});

test("checks a package's page: its problems in page order, the third-party packages it installs, its snippets", () => {
  const checked = checkPage(
    "packages/webhook-verify/README.md",
    `${page}\n\n\`\`\`ts\nimport { Hono } from "hono";\n\`\`\``,
  );
  assert.deepEqual(checked.problems, [
    'packages/webhook-verify/README.md:5: install with "npm install ...", not "pnpm add hono"',
    "packages/webhook-verify/README.md:13: relative link ../../openapi/openapi.yaml (dead on the registry's page)",
    "packages/webhook-verify/README.md:16: imports hono, but the page never says to install hono",
  ]);
  assert.deepEqual(checked.thirdParty, ["express", "@types/express"]);
  assert.deepEqual(
    checked.snippets.map((s) => s.file),
    ["packages_webhook-verify_README_md_L8.ts", "packages_webhook-verify_README_md_L16.ts"],
  );
  assert.equal(checked.snippets[1].code, 'import { Hono } from "hono";\n');
});

test("leaves relative links alone on pages that are not published (the root README, the guides)", () => {
  assert.deepEqual(
    checkPage("docs/guides/receive.md", page).problems.filter((p) => p.includes("relative link")),
    [],
  );
});

test("flags root scripts that pnpm's own commands shadow", () => {
  assert.deepEqual(shadowedScripts({ scripts: { docs: "x", "docs:build": "x", test: "x" } }), ["docs"]);
});

test("counts installed packages (nested and scoped) and sums their file bytes", () => {
  const app = mkdtempSync(join(tmpdir(), "install-size-"));
  const dir = join(app, "node_modules");
  try {
    const put = (path, text) => {
      mkdirSync(join(dir, path, ".."), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    put("a/package.json", "{}");
    put("a/index.js", "12345");
    put("@s/b/package.json", "{}");
    put("@s/b/node_modules/c/package.json", "{}");
    put("@s/b/lib/package.json", "{}"); // a package.json below a package root is not another package
    const found = installSize(dir);
    assert.deepEqual(found.packages.sort(), ["@s/b", "a", "c"]);
    assert.equal(found.bytes, 4 * 2 + 5); // four package.json files of "{}" and "12345"
  } finally {
    rmSync(app, { recursive: true, force: true });
  }
});

test("fails an install over its budget", () => {
  const cli = { budget: 15e6 };
  assert.equal(budgetVerdict(cli, { bytes: 14e6, packages: ["ajv"] }), "within");
  assert.equal(budgetVerdict(cli, { bytes: 16e6, packages: ["ajv"] }), "over");
  assert.equal(budgetVerdict({ budget: 1e6 }, { bytes: 1e6 + 1, packages: [] }), "over");
});
