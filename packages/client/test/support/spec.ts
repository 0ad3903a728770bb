// The spec, bundled and dereferenced by the repository's Redocly CLI, for tests that read it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, from this file's location (never an absolute path). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
export const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Runs `redocly bundle` into `output` (format from its extension). */
export function bundle(output: string, dereferenced = false): void {
  const cli = join(repoRoot, "node_modules", "@redocly", "cli", "bin", "cli.js");
  const args = [cli, "bundle", join(repoRoot, "openapi", "openapi.yaml"), `--output=${output}`];
  if (dereferenced) args.push("--dereferenced");
  const run = spawnSync(process.execPath, args, {
    cwd: repoRoot,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
  });
  if (run.status !== 0) throw new Error(`redocly bundle failed:\n${run.stdout}\n${run.stderr}`);
}

let cached: any;
/** The dereferenced spec as JSON. */
export function loadSpec(): any {
  if (cached !== undefined) return cached;
  const dir = mkdtempSync(join(tmpdir(), "exchange-client-spec-"));
  try {
    const file = join(dir, "openapi.json");
    bundle(file, true);
    cached = JSON.parse(readFileSync(file, "utf8"));
    return cached;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface SpecOperation {
  operationId: string;
  method: string;
  path: string;
  tag: string;
  operation: any;
}

/** Every operation under `paths`. */
export function specOperations(spec = loadSpec()): SpecOperation[] {
  const out: SpecOperation[] = [];
  for (const [path, item] of Object.entries<any>(spec.paths)) {
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      const operation = item[method];
      if (operation)
        out.push({
          operationId: operation.operationId,
          method: method.toUpperCase(),
          path,
          tag: operation.tags[0],
          operation,
        });
    }
  }
  return out;
}

/** The value of the first named example of a media object, or its `example`. */
export function firstExampleOf(media: any): unknown {
  if (media?.examples) {
    const first = Object.values<any>(media.examples)[0];
    if (first && "value" in first) return first.value;
  }
  return media?.example;
}
