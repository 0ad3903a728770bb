#!/usr/bin/env node
// `pnpm generate` for the client: writes what comes from the spec, so that CI's drift check covers it.
//   src/generated/resources/<group>.ts  one explicit, documented method per operation of the group
//   src/generated/resources/index.ts    the groups assembled (both: scripts/lib/resources-gen.ts)
//   README.md, between <!-- generated:idempotency --> markers: the retry class of every operation
//                                       (scripts/lib/readme-gen.ts)
// The output depends on the spec only, so running it twice gives the same bytes.
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readSandboxSpec, readSpec } from "@exchange-kit/openapi";
import { writeIfChanged } from "@exchange-kit/spec-tools/generated-files";
import { asOpenApiSpec } from "@exchange-kit/spec-tools/spec";
import { idempotencyTable, replaceBlock } from "./lib/readme-gen.ts";
import { generateResources, withSandboxParameters } from "./lib/resources-gen.ts";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = join(packageDir, "..", "..");

// The bundled document @exchange-kit/openapi publishes: the file users install (turbo builds it first), with the
// sandbox's own query parameters taken from the sandbox's spec: the client talks to both.
const spec = withSandboxParameters(asOpenApiSpec(readSpec()), asOpenApiSpec(readSandboxSpec()));
let changed = 0;

const outDir = join(packageDir, "src", "generated", "resources");
const files = generateResources(spec, repoRoot);
mkdirSync(outDir, { recursive: true });
for (const name of readdirSync(outDir)) if (!(name in files)) rmSync(join(outDir, name), { force: true });
for (const [name, content] of Object.entries(files)) changed += writeIfChanged(join(outDir, name), content) ? 1 : 0;

const readmePath = join(packageDir, "README.md");
changed += writeIfChanged(
  readmePath,
  replaceBlock(readFileSync(readmePath, "utf8"), "idempotency", idempotencyTable(spec)),
)
  ? 1
  : 0;
console.log(`client: ${Object.keys(files).length} resource files and the README table, ${changed} changed`);
