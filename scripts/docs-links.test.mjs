// The link check of the pages users read (scripts/docs-links.mjs): the repository's own pages have no broken
// link, and each kind of broken link is caught.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { anchorsOf, brokenLinks, linksOf, REPO_URL, SITE_URL, slugOf } from "./docs-links.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

describe("the pages users read", () => {
  it("have no broken link: every file, heading and docs-site page they link to exists", () => {
    assert.deepEqual(brokenLinks(root).broken, []);
  });
});

describe("slugOf", () => {
  for (const [heading, slug] of [
    ["Getting started", "getting-started"],
    ["Runtimes and CommonJS", "runtimes-and-commonjs"],
    ["A receiver that survives crashes: the inbox", "a-receiver-that-survives-crashes-the-inbox"],
    ["`client.request`: the signed escape hatch", "clientrequest-the-signed-escape-hatch"],
    ["Speed and size", "speed-and-size"],
  ])
    it(`${heading} → ${slug}`, () => assert.equal(slugOf(heading.replace(/`/g, "")), slug));
});

describe("anchorsOf and linksOf", () => {
  it("number repeated headings and ignore headings and links inside code blocks", () => {
    const page = "# Errors\n## Errors\n```md\n# Not a heading\n[x](missing.md)\n```\n[ok](#errors-1)\n";
    assert.deepEqual([...anchorsOf(page)], ["errors", "errors-1"]);
    assert.deepEqual(linksOf(page), [{ line: 7, target: "#errors-1" }]);
  });
});

describe("brokenLinks on a page with one broken link of each kind", () => {
  const dir = mkdtempSync(join(tmpdir(), "docs-links-"));
  mkdirSync(join(dir, "packages", "a"), { recursive: true });
  mkdirSync(join(dir, "docs", "guides"), { recursive: true });
  mkdirSync(join(dir, "openapi"), { recursive: true });
  writeFileSync(join(dir, "openapi", "README.md"), "# Spec\n");
  writeFileSync(join(dir, "docs", "guides", "webhooks.md"), "# Webhooks\n## Verifying\n");
  writeFileSync(
    join(dir, "README.md"),
    [
      "# Root",
      "[fine](docs/guides/webhooks.md#verifying)",
      "[no file](docs/guides/missing.md)",
      "[no heading](docs/guides/webhooks.md#retries)",
      `[no site page](${SITE_URL}guides/nothing.html)`,
      `[site page](${SITE_URL}guides/webhooks.html)`,
      `[no repo file](${REPO_URL}/blob/main/packages/a/src/gone.ts)`,
      "[elsewhere](https://example.com/x)",
      "[here](#root)",
      "[not here](#nowhere)",
    ].join("\n"),
  );
  writeFileSync(join(dir, "packages", "a", "README.md"), "# A\n");
  const { broken, external } = brokenLinks(dir);

  it("names each broken link with its page and line, and why", () => {
    assert.deepEqual(broken, [
      "README.md:3: docs/guides/missing.md (no such file)",
      "README.md:4: docs/guides/webhooks.md#retries (no heading #retries in docs/guides/webhooks.md)",
      `README.md:5: ${SITE_URL}guides/nothing.html (no such page on the docs site)`,
      `README.md:7: ${REPO_URL}/blob/main/packages/a/src/gone.ts (no such file)`,
      "README.md:10: #nowhere (no heading #nowhere in README.md)",
    ]);
  });

  it("counts links to other sites without fetching them", () => assert.equal(external, 1));
});
