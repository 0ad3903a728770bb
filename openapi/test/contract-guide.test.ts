// The contract-testing guide shows the example files as they are: each block after a `<!-- file: PATH -->` marker
// is that file of the repository, byte for byte (the files are what CI runs: scripts/contract-examples.mjs).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./helpers.js";

const guide = readFileSync(join(repoRoot, "docs", "guides", "contract-testing.md"), "utf8");
const shown = [...guide.matchAll(/<!-- file: (\S+) -->\n```[a-z]*\n([\s\S]*?)```\n/g)].map((m) => ({
  path: m[1]!,
  text: m[2]!,
}));

describe("docs/guides/contract-testing.md", () => {
  it("shows both example test files and the workflow", () => {
    expect(shown.map((s) => s.path)).toEqual([
      "examples/contract-testing/test/shapes.contract.test.ts",
      "examples/contract-testing/test/sandbox.contract.test.ts",
      "examples/contract-testing/contract-tests.yml",
    ]);
  });

  it.each(shown.map((s) => [s.path, s.text]))("shows %s exactly as it is in the repository", (path, text) => {
    expect(text).toBe(readFileSync(join(repoRoot, path), "utf8"));
  });

  it("is listed in the guides index", () => {
    expect(readFileSync(join(repoRoot, "docs", "README.md"), "utf8")).toContain("(guides/contract-testing.md)");
  });
});
