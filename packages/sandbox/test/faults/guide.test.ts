// The testing-failures guide shows its examples as they are: each block after a `<!-- file: PATH -->` marker is
// that file of the repository, byte for byte, and the files are tests that run (test/faults/guide/).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..", "..", "..");
const guide = readFileSync(join(root, "docs", "guides", "testing-failures.md"), "utf8");
const shown = [...guide.matchAll(/<!-- file: (\S+) -->\n```[a-z]*\n([\s\S]*?)```\n/g)].map((m) => ({
  path: m[1]!,
  text: m[2]!,
}));

describe("docs/guides/testing-failures.md", () => {
  it("shows the example with the client, the one with bare fetch, and their setup", () => {
    expect(shown.map((s) => s.path)).toEqual([
      "packages/sandbox/test/faults/guide/with-client.test.ts",
      "packages/sandbox/test/faults/guide/with-fetch.test.ts",
      "packages/sandbox/test/faults/guide/payout-ready.ts",
    ]);
  });

  it.each(shown.map((s) => [s.path, s.text]))("shows %s exactly as it is in the repository", (path, text) => {
    expect(text).toBe(readFileSync(join(root, path), "utf8"));
  });

  it("is listed in the guides index", () => {
    expect(readFileSync(join(root, "docs", "README.md"), "utf8")).toContain("(guides/testing-failures.md)");
  });
});
