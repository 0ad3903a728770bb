// Every published package's README links to the published documentation: the GitHub Pages site of the
// repository each package.json names (https://<owner>.github.io/<repo>/latest/).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./helpers.js";

const packageDirs = [
  ...readdirSync(join(repoRoot, "packages")).map((d) => join(repoRoot, "packages", d)),
  join(repoRoot, "openapi"),
];
const published = packageDirs
  .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }))
  .filter(({ pkg }) => !pkg.private);

function pagesUrl(repositoryUrl: string): string {
  const match = /github\.com\/([^/]+)\/([^/.]+)(?:\.git)?$/.exec(repositoryUrl);
  if (!match) throw new Error(`not a GitHub repository URL: ${repositoryUrl}`);
  return `https://${match[1]}.github.io/${match[2]}/latest/`;
}

describe("package READMEs", () => {
  it("covers the spec package and the code packages", () => {
    expect(published.map(({ pkg }) => pkg.name)).toContain("@exchange-kit/openapi");
    expect(published.length).toBeGreaterThanOrEqual(7);
  });

  it.each(published.map(({ dir, pkg }) => [pkg.name, dir, pkg.repository?.url]))(
    "%s links to the documentation site",
    (_name, dir, repo) => {
      expect(repo, "package.json has repository.url").toBeTypeOf("string");
      expect(readFileSync(join(dir as string, "README.md"), "utf8")).toContain(pagesUrl(repo as string));
    },
  );
});
