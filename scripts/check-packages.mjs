#!/usr/bin/env node
// Checks every publishable package the way a user receives it: from its packed tarball.
// publint catches broken `exports`/`files`; attw proves the types resolve under Node16 (ESM) and bundler
// resolution. The packages are ESM-only, so attw runs with the esm-only profile.
// Each tarball also carries the licence (the root LICENSE, copied into every package) and the links a registry shows,
// and a manifest without the workspace's source condition.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { publishablePackages } from "./release-check/workspace.mjs";

const root = resolve(fileURLToPath(import.meta.url), "../..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const out = mkdtempSync(join(tmpdir(), "exchange-kit-pack-"));
const license = readFileSync(join(root, "LICENSE"), "utf8");
let failed = 0;

/** What a user sees on the registry page and in node_modules: the licence text and where to go. */
function metadataProblems(pkg, tarball) {
  const problems = [];
  for (const field of ["license", "repository", "homepage", "bugs"]) if (!pkg[field]) problems.push(`no "${field}"`);
  let shipped = "";
  try {
    shipped = execFileSync("tar", ["-xzOf", tarball, "package/LICENSE"], { encoding: "utf8", stdio: "pipe" });
  } catch {
    problems.push("the tarball has no LICENSE");
  }
  if (shipped && shipped !== license) problems.push("the LICENSE in the tarball differs from the repository's");
  // The workspace-only export condition (src/*.ts, not shipped) is dropped at pack time by .pnpmfile.cjs.
  const manifest = execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8", stdio: "pipe" });
  if (manifest.includes('"@exchange-kit/source"'))
    problems.push('the manifest keeps the "@exchange-kit/source" condition');
  return problems;
}

try {
  for (const pkg of publishablePackages(root)) {
    const dest = join(out, relative(root, pkg.dir));
    // The workspace's own pnpm (pinned in package.json, provided by scripts/run.mjs), which applies .pnpmfile.cjs.
    execFileSync("pnpm", ["pack", "--pack-destination", dest], { cwd: pkg.dir, stdio: "pipe" });
    const tarball = join(
      dest,
      readdirSync(dest).find((f) => f.endsWith(".tgz")),
    );
    // A file exported by path that is data, never imported (the spec's openapi.yaml), has no module to resolve.
    const dataEntries = Object.entries(pkg.exports ?? {})
      .filter(([, target]) => typeof target === "string" && /\.ya?ml$/.test(target))
      .map(([entry]) => entry);
    const exclude = dataEntries.length > 0 ? ["--exclude-entrypoints", ...dataEntries] : [];
    const problems = metadataProblems(pkg, tarball);
    if (problems.length) {
      failed++;
      console.error(`FAIL ${pkg.name}: metadata\n  ${problems.join("\n  ")}`);
    } else console.log(`ok   ${pkg.name}: LICENSE, repository, homepage, bugs, no source condition`);
    for (const [label, cmd, args] of [
      ["publint", bin("publint"), ["run", tarball, "--strict", "--pack", "false"]],
      ["attw", bin("attw"), [tarball, "--profile", "esm-only", "--no-emoji", "--format", "table-flipped", ...exclude]],
    ]) {
      try {
        execFileSync(cmd, args, { stdio: "pipe", encoding: "utf8" });
        console.log(`ok   ${pkg.name}: ${label}`);
      } catch (error) {
        failed++;
        console.error(`FAIL ${pkg.name}: ${label}\n${error.stdout ?? ""}${error.stderr ?? ""}`);
      }
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
if (failed) {
  console.error(`${failed} package check(s) failed`);
  process.exit(1);
}
