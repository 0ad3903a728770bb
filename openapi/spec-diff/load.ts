// Loads the two documents of a spec diff as bundled JSON: any spec file (a multi-file root or a bundle, YAML or
// JSON) goes through `redocly bundle`, and a git ref's spec is taken from `git archive` first.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { applySandboxOverlay, parseOverlay } from "../scripts/overlay.ts";
import type { JsonObject } from "./types.ts";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const specPath = "openapi/openapi.yaml";
const redoclyCli = join(repoRoot, "node_modules", "@redocly", "cli", "bin", "cli.js");

/** A typed failure of the tool's input (bad file, unknown ref): the CLI prints it and exits 2. */
export class SpecDiffInputError extends Error {
  override name = "SpecDiffInputError";
}

/** Bundles a spec file into one JSON document; references stay internal (`#/components/...`). */
export function loadSpec(file: string): JsonObject {
  const work = mkdtempSync(join(tmpdir(), "spec-diff-"));
  try {
    const out = join(work, "bundle.json");
    // Run from the temporary directory, so no redocly.yaml (and none of its decorators) applies.
    const run = spawnSync(process.execPath, [redoclyCli, "bundle", resolve(file), "--ext", "json", "-o", out], {
      cwd: work,
      encoding: "utf8",
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
    });
    if (run.status !== 0)
      throw new SpecDiffInputError(
        `cannot bundle ${file}: ${(run.stderr || run.stdout).trim().split("\n").slice(-3).join(" ")}`,
      );
    // The bundle is Redocly's own output of our spec (no escaped keys), so the native parser reads it exactly.
    return JSON.parse(readFileSync(out, "utf8")) as JsonObject;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The spec as it is at a git ref (a branch, tag or commit), bundled. */
export function loadSpecAtRef(ref: string, root = repoRoot): JsonObject {
  return withSpecAtRef(ref, root, (file) => loadSpec(file));
}

/**
 * The sandbox's spec as it is at a git ref: the bundle with that ref's own overlay (`overlays/sandbox.yaml`)
 * applied; a ref from before the overlay existed held the sandbox's statements in the spec itself.
 */
export async function loadSandboxSpecAtRef(ref: string, root = repoRoot): Promise<JsonObject> {
  const { spec, overlay } = withSpecAtRef(ref, root, (file) => {
    const overlayFile = join(dirname(file), "overlays", "sandbox.yaml");
    return { spec: loadSpec(file), overlay: existsSync(overlayFile) ? readFileSync(overlayFile, "utf8") : undefined };
  });
  return overlay === undefined ? spec : applySandboxOverlay(spec, await parseOverlay(overlay));
}

/** The working tree's sandbox spec: the bundle with the working tree's overlay applied. */
export async function loadSandboxSpec(file = join(repoRoot, specPath)): Promise<JsonObject> {
  return applySandboxOverlay(loadSpec(file));
}

/** Runs `read` on the spec's root file as it is at a git ref, extracted into a temporary directory. */
function withSpecAtRef<T>(ref: string, root: string, read: (file: string) => T): T {
  const work = mkdtempSync(join(tmpdir(), "spec-diff-ref-"));
  try {
    let archive: Buffer;
    try {
      archive = execFileSync("git", ["archive", "--format=tar", ref, dirname(specPath)], {
        cwd: root,
        stdio: ["ignore", "pipe", "pipe"],
        maxBuffer: 256 * 1024 * 1024,
      });
    } catch {
      throw new SpecDiffInputError(`no spec at git ref ${ref}`);
    }
    execFileSync("tar", ["-x", "-C", work], { input: archive });
    return read(join(work, specPath));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
