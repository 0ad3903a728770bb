// scripts/docs-site.mjs: the published documentation site keeps one reference per released spec version.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./helpers.js";

const script = join(repoRoot, "scripts", "docs-site.mjs");
const site = mkdtempSync(join(tmpdir(), "exchange-kit-site-"));
const page = (dir: string) => readFileSync(join(site, dir, "index.html"), "utf8");
let run: ReturnType<typeof spawnSync>;

beforeAll(() => {
  // Two versions released earlier: an older one and a newer one (a patch of an old line can be released later).
  for (const v of ["0.9.0", "2.0.0"]) {
    mkdirSync(join(site, `v${v}`));
    writeFileSync(join(site, `v${v}`, "index.html"), `reference ${v}`);
  }
  run = spawnSync(process.execPath, [script, "--site", site, "--version", "1.0.0"], {
    cwd: repoRoot,
    encoding: "utf8",
  });
}, 120_000);

afterAll(() => rmSync(site, { recursive: true, force: true }));

describe("docs-site", () => {
  it("builds the reference and its guides under /v<version>/", () => {
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(page("v1.0.0")).toContain("Exchange Service API");
    expect(readFileSync(join(site, "v1.0.0", "guides", "contract-testing.html"), "utf8")).toContain("Contract testing");
  });

  it("leaves every other released version as it was", () => {
    expect(page("v0.9.0")).toBe("reference 0.9.0");
    expect(page("v2.0.0")).toBe("reference 2.0.0");
  });

  it("serves the highest version as /latest/, not the one built last", () => {
    expect(page("latest")).toBe("reference 2.0.0");
  });

  it("lists every version, highest first, and sends the root to /latest/", () => {
    expect(JSON.parse(readFileSync(join(site, "versions.json"), "utf8"))).toEqual(["2.0.0", "1.0.0", "0.9.0"]);
    const index = page(".");
    expect(index).toContain("url=latest/");
    for (const v of ["2.0.0", "1.0.0", "0.9.0"]) expect(index).toContain(`href="v${v}/"`);
  });

  it("refuses a version that is not a release", () => {
    const bad = spawnSync(process.execPath, [script, "--site", site, "--version", "1.1.0-beta.1"], {
      encoding: "utf8",
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("Not a release version: 1.1.0-beta.1");
  });
});
