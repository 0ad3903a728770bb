#!/usr/bin/env node
// `pnpm generate` for the client: writes the parts of README.md that come from the spec, between their markers,
// so that CI's drift check covers them.
//   <!-- generated:idempotency -->  the retry class (x-idempotency) of every operation
// The output depends on the spec only, so running it twice gives the same bytes.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleSpec } from "../../types/scripts/lib/spec.mjs";
import { groupOfTag, methodNameOf } from "../src/method-names.ts";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const METHODS = ["get", "put", "post", "delete", "patch"];
const MEANING = {
  safe: "repeated after any retryable failure",
  guarded: "repeated only after the history shows no order with its client_reference_id",
  unsafe: "repeated only when the request provably did not reach the service; else ExchangeAmbiguousResultError",
};

/** The rows of the idempotency table, in spec order. */
function idempotencyTable(spec) {
  const rows = ["| method | operation | class | after an uncertain failure |", "| - | - | - | - |"];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op === undefined) continue;
      const cls = op["x-idempotency"];
      if (!(cls in MEANING)) throw new Error(`${method.toUpperCase()} ${path}: x-idempotency missing or unknown (${cls})`);
      const group = groupOfTag(op.tags[0]);
      rows.push(`| \`${group}.${methodNameOf(op.operationId, group)}\` | ${op.operationId} (${method.toUpperCase()} \`${path}\`) | **${cls}** | ${MEANING[cls]} |`);
    }
  }
  return rows.join("\n");
}

/** `text` with the block between `<!-- generated:name -->` and `<!-- /generated:name -->` replaced by `body`. */
function replaceBlock(text, name, body) {
  const start = `<!-- generated:${name} -->`;
  const end = `<!-- /generated:${name} -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README.md has no ${start} ... ${end} block`);
  return `${text.slice(0, from + start.length)}\n${body}\n${text.slice(to)}`;
}

const spec = bundleSpec();
const readmePath = join(packageDir, "README.md");
const before = readFileSync(readmePath, "utf8");
const after = replaceBlock(before, "idempotency", idempotencyTable(spec));
if (after !== before) writeFileSync(readmePath, after);
console.log(`README.md: ${after === before ? "unchanged" : "updated"}`);
