#!/usr/bin/env node
// Checks every publishable package the way a user receives it: from its packed tarball.
// publint catches broken `exports`/`files`; attw proves the types resolve under Node16 (ESM) and bundler
// resolution. The packages are ESM-only, so attw runs with the esm-only profile.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(import.meta.url), "../..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const out = mkdtempSync(join(tmpdir(), "exchange-kit-pack-"));
let failed = 0;

try {
  for (const dir of readdirSync(join(root, "packages")).sort()) {
    const pkgDir = join(root, "packages", dir);
    const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
    if (pkg.private) continue;
    const dest = join(out, dir);
    execFileSync("npx", ["-y", "pnpm@10.34.8", "pack", "--pack-destination", dest], { cwd: pkgDir, stdio: "pipe" });
    const tarball = join(dest, readdirSync(dest).find((f) => f.endsWith(".tgz")));
    for (const [label, cmd, args] of [
      ["publint", bin("publint"), ["run", tarball, "--strict", "--pack", "false"]],
      ["attw", bin("attw"), [tarball, "--profile", "esm-only", "--no-emoji", "--format", "table-flipped"]],
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
