// The package's version follows the spec's info.version: a spec change is a changeset for @exchange-kit/openapi
// whose bump takes the package from its released version to the new info.version.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nextVersion, pendingBump, specVersion } from "./versioning.js";
import { repoRoot } from "./helpers.js";

const packageJson = JSON.parse(readFileSync(join(repoRoot, "openapi", "package.json"), "utf8")) as { version: string };
const changesetDir = join(repoRoot, ".changeset");
const changesets = readdirSync(changesetDir)
  .filter((name) => name.endsWith(".md") && name !== "README.md")
  .map((name) => readFileSync(join(changesetDir, name), "utf8"));

describe("the version of @exchange-kit/openapi", () => {
  it("equals info.version of openapi.yaml once the pending changesets are applied", () => {
    const bump = pendingBump(changesets, "@exchange-kit/openapi");
    const expected = specVersion(readFileSync(join(repoRoot, "openapi", "openapi.yaml"), "utf8"));
    expect(
      nextVersion(packageJson.version, bump),
      `package.json ${packageJson.version} + pending ${bump ?? "none"} must give info.version ${expected}: ` +
        "add a changeset for @exchange-kit/openapi with the bump that matches the spec change",
    ).toBe(expected);
  });
});

describe("the version rules", () => {
  it("reads info.version from the top-level info object only", () => {
    expect(
      specVersion("openapi: 3.1.0\ninfo:\n  title: T\n  version: 2.3.4\n  x:\n    version: 9.9.9\npaths: {}\n"),
    ).toBe("2.3.4");
  });

  it("takes the largest bump of the package among the changesets and ignores other packages", () => {
    const sets = [
      '---\n"@exchange-kit/openapi": patch\n"@exchange-kit/cli": major\n---\n\nA fix.\n',
      "---\n'@exchange-kit/openapi': minor\n---\n\nA new field.\n",
    ];
    expect(pendingBump(sets, "@exchange-kit/openapi")).toBe("minor");
    expect(pendingBump(sets.slice(0, 1), "@exchange-kit/openapi")).toBe("patch");
    expect(pendingBump(['---\n"@exchange-kit/cli": minor\n---\n'], "@exchange-kit/openapi")).toBeUndefined();
  });

  it("bumps like semver, so a first major release of 0.0.0 is 1.0.0", () => {
    expect(nextVersion("0.0.0", "major")).toBe("1.0.0");
    expect(nextVersion("1.2.3", "minor")).toBe("1.3.0");
    expect(nextVersion("1.2.3", "patch")).toBe("1.2.4");
    expect(nextVersion("1.2.3", undefined)).toBe("1.2.3");
  });

  it("fails the check when the spec changed its version without a changeset", () => {
    const spec = "info:\n  version: 1.1.0\n";
    expect(nextVersion("1.0.0", pendingBump([], "@exchange-kit/openapi"))).not.toBe(specVersion(spec));
  });
});
