#!/usr/bin/env node
// `pnpm generate` for the client: writes what comes from the spec, so that CI's drift check covers it.
//   src/generated/resources/<group>.ts  one explicit, documented method per operation of the group
//   src/generated/resources/index.ts    the groups assembled
//   README.md, between <!-- generated:idempotency --> markers: the retry class of every operation
// The output depends on the spec only, so running it twice gives the same bytes.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleSpec, type OpenApiSpec } from "../../types/scripts/lib/spec.ts";
import { clientOperations, generateResources } from "./lib/resources-gen.ts";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = join(packageDir, "..", "..");
const MEANING: Readonly<Record<string, string>> = {
  safe: "repeated after any retryable failure",
  guarded: "repeated only after the history shows no order with its client_reference_id",
  unsafe: "repeated only when the request provably did not reach the service; else ExchangeAmbiguousResultError",
};

/** The rows of the idempotency table, in spec order. */
function idempotencyTable(spec: OpenApiSpec): string {
  const rows = ["| method | operation | class | after an uncertain failure |", "| - | - | - | - |"];
  for (const op of clientOperations(spec)) {
    const cls = String(op.operation["x-idempotency"]);
    if (!Object.hasOwn(MEANING, cls)) throw new Error(`${op.operationId}: x-idempotency missing or unknown (${cls})`);
    rows.push(
      `| \`${op.group}.${op.name}\` | ${op.operationId} (${op.method.toUpperCase()} \`${op.path}\`) | **${cls}** | ${MEANING[cls]} |`,
    );
  }
  return rows.join("\n");
}

/** `text` with the block between `<!-- generated:name -->` and `<!-- /generated:name -->` replaced by `body`. */
function replaceBlock(text: string, name: string, body: string): string {
  const start = `<!-- generated:${name} -->`;
  const end = `<!-- /generated:${name} -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README.md has no ${start} ... ${end} block`);
  return `${text.slice(0, from + start.length)}\n${body}\n${text.slice(to)}`;
}

/** Writes `content` to `path` unless it is already there; true when it changed. */
function write(path: string, content: string): boolean {
  let previous: string | undefined;
  try {
    previous = readFileSync(path, "utf8");
  } catch {}
  if (previous === content) return false;
  writeFileSync(path, content);
  return true;
}

const spec = bundleSpec();
let changed = 0;

const outDir = join(packageDir, "src", "generated", "resources");
const files = generateResources(spec, repoRoot);
mkdirSync(outDir, { recursive: true });
for (const name of readdirSync(outDir)) if (!(name in files)) rmSync(join(outDir, name), { force: true });
for (const [name, content] of Object.entries(files)) changed += write(join(outDir, name), content) ? 1 : 0;

const readmePath = join(packageDir, "README.md");
changed += write(readmePath, replaceBlock(readFileSync(readmePath, "utf8"), "idempotency", idempotencyTable(spec)))
  ? 1
  : 0;
console.log(`client: ${Object.keys(files).length} resource files and the README table, ${changed} changed`);
