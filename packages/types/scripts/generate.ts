#!/usr/bin/env node
// `pnpm generate`: bundles the spec once and writes every file of src/generated/ (and removes any other file there).
//   openapi.ts     openapi-typescript's output: paths, webhooks, components, operations, $defs
//   aliases.ts     a type alias per component schema, the WebhookEvent union
//   err-codes.ts   errCodes: every err_code value the spec names
//   routes.ts      operationRoutes: tag, path, method and parameters of every operation, by operationId
//   operations.ts  operationIndex: operationRoutes with named members, plus summary and required parts
//   zod.ts         zod schemas (scripts/generate-zod.ts)
//   catalog.ts     webhook event types, events, metadata rules and record statuses as values (scripts/catalog.ts)
// The output depends on the spec only (no dates, no absolute paths), so running it twice gives the same bytes.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateCatalog } from "./catalog.ts";
import { generateZod } from "./generate-zod.ts";
import {
  generateAliases,
  generateErrCodes,
  generateOperationIndex,
  generateOperationRoutes,
  operationEntries,
} from "./lib/index-gen.ts";
import { generateOpenapiTypes } from "./lib/openapi-types.ts";
import { bundleSpec, packageDir } from "./lib/load.ts";

const outDir = join(packageDir, "src", "generated");
const spec = bundleSpec();
const operations = operationEntries(spec);
const files: Record<string, string> = {
  "openapi.ts": await generateOpenapiTypes(spec),
  "aliases.ts": generateAliases(spec),
  "err-codes.ts": generateErrCodes(spec),
  "routes.ts": generateOperationRoutes(operations),
  "operations.ts": generateOperationIndex(operations),
  "zod.ts": generateZod(spec),
  "catalog.ts": generateCatalog(spec),
};

mkdirSync(outDir, { recursive: true });
for (const name of readdirSync(outDir)) {
  if (!(name in files)) rmSync(join(outDir, name), { recursive: true, force: true });
}
let changed = 0;
for (const [name, content] of Object.entries(files)) {
  const path = join(outDir, name);
  const text = content.endsWith("\n") ? content : `${content}\n`;
  let previous: string | undefined;
  try {
    previous = readFileSync(path, "utf8");
  } catch {}
  if (previous !== text) {
    writeFileSync(path, text);
    changed++;
  }
}
console.log(`src/generated: ${Object.keys(files).length} files, ${changed} changed`);
