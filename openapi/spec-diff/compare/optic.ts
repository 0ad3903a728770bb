// Runs Optic (`@useoptic/optic` from npm) on two spec files. `npx -y @useoptic/optic@latest` does not start as
// published: npm hoists ajv-errors next to Optic's own ajv 8.17.1 while spectral-core gets a nested ajv 8.20, and
// the two code generators meet ("Error compiling schema ... Unexpected token ':'"). So Optic is installed once, into
// node_modules/.cache, with an npm override that gives every package the same ajv.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../load.ts";

export const OPTIC_VERSION = "1.0.9";
const dir = join(repoRoot, "node_modules", ".cache", "spec-diff-optic");
const bin = join(dir, "node_modules", "@useoptic", "optic", "build", "index.js");

/** Installs Optic (once) and returns the path of its entry point. */
export function installOptic(): string {
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  const manifest = {
    private: true,
    dependencies: { "@useoptic/optic": OPTIC_VERSION },
    overrides: { ajv: "8.20.0" },
  };
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest, null, 2));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: dir, stdio: "inherit" });
  return bin;
}

export interface OpticRun {
  exitCode: number;
  changelog: unknown;
  stderr: string;
}

/** `optic diff <before> <after> --check --json`, telemetry off. */
export function runOptic(entry: string, before: string, after: string): OpticRun {
  const run = spawnSync(process.execPath, [entry, "diff", before, after, "--check", "--json"], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, OPTIC_TELEMETRY_LEVEL: "off", NO_COLOR: "1" },
    timeout: 10 * 60_000,
  });
  let changelog: unknown;
  try {
    changelog = JSON.parse(run.stdout); // Optic's own output, read as the tool's result
  } catch {
    changelog = undefined;
  }
  return { exitCode: run.status ?? -1, changelog, stderr: run.stderr };
}
