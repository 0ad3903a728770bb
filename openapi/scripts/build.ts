#!/usr/bin/env node
// Writes the published artifacts of @exchange-kit/openapi into dist/ from the split source (openapi.yaml and
// the files it references), with the Redocly CLI:
//
//   dist/openapi.yaml               one file, every external $ref pulled in (internal $refs kept)
//   dist/openapi.json               the same document as JSON
//   dist/openapi.dereferenced.json  every $ref replaced by its target (for tools that cannot follow $refs)
//   dist/sandbox/openapi.json       the sandbox's spec: openapi.json with overlays/sandbox.yaml applied (OpenAPI
//                                   Overlay 1.0, by openapi-format's implementation); the build fails when an
//                                   action of the overlay matches nothing, so a renamed target cannot go unnoticed
//   dist/docs/                      the reference and the guides as HTML, readable offline
//
// dist/ is built, never committed (the split source is the only copy in git, so nothing can drift): turbo's
// `build` and `prepack` run this, so a tarball always carries the artifacts of the spec it was packed from.
//
// Every object key of the JSON files is checked to be plain (no escape sequence in the text), so any reader,
// including V8's JSON.parse with its escaped-key bug (nodejs/node#63785), reads the keys exactly.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ESCAPED_KEY } from "./escaped-key.ts";
import { applySandboxOverlay } from "./overlay.ts";

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const source = join(packageDir, "openapi.yaml");
const out = join(packageDir, "dist");
const redoclyCli = createRequire(join(packageDir, "package.json")).resolve("@redocly/cli/bin/cli.js");

function bundle(file: string, extra: readonly string[]): void {
  const run = spawnSync(process.execPath, [redoclyCli, "bundle", source, "-o", join(out, file), ...extra], {
    cwd: packageDir,
    encoding: "utf8",
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
  });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`redocly bundle (${file}) exited with ${run.status}:\n${run.stderr}`);
}

/**
 * dist/docs/: the reference (Redoc, one self-contained page) and the guides as HTML, as the published site has them
 * (scripts/build-docs.mjs), so a user reads them offline from what they installed (`exchange-kit docs` serves them).
 */
function buildDocs(): void {
  const script = join(packageDir, "..", "scripts", "build-docs.mjs");
  const run = spawnSync(process.execPath, [script, "--out", join(out, "docs")], {
    cwd: packageDir,
    encoding: "utf8",
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
  });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`the docs build exited with ${run.status}:\n${run.stderr}`);
}

try {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  bundle("openapi.yaml", ["--ext", "yaml"]);
  bundle("openapi.json", ["--ext", "json"]);
  bundle("openapi.dereferenced.json", ["--ext", "json", "--dereferenced"]);
  const sandbox = await applySandboxOverlay(JSON.parse(readFileSync(join(out, "openapi.json"), "utf8")));
  mkdirSync(join(out, "sandbox"), { recursive: true });
  writeFileSync(join(out, "sandbox", "openapi.json"), `${JSON.stringify(sandbox, null, 2)}\n`);
  for (const file of ["openapi.json", "openapi.dereferenced.json", "sandbox/openapi.json"]) {
    const match = ESCAPED_KEY.exec(readFileSync(join(out, file), "utf8"));
    if (match) throw new Error(`${file} has an object key with an escape sequence (${match[0].trim()}): rename it`);
  }
  buildDocs();
  console.log(
    "dist/openapi.yaml, dist/openapi.json, dist/openapi.dereferenced.json, dist/sandbox/openapi.json, dist/docs/",
  );
} catch (error) {
  console.error(`openapi build failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
