#!/usr/bin/env node
// exchange-kit-bundle: run in a package's directory after `tsc --emitDeclarationOnly`. Bundles each entry of the
// exports map from src/ into dist/<name>.js with esbuild; code shared by several entries goes into dist/chunks/ once
// (so an error class stays one class whichever entry it is imported from). Other packages stay imports (they are
// dependencies, resolved by the user's runtime or bundler), as do Node built-ins.
//
// Why: a cold `import` in Node pays per module file (resolution, read, compile, link). The client's 36 files took
// ~50 ms to import; one file per entry takes a fraction of that, with the same code.
import { readFileSync } from "node:fs";
import { build } from "esbuild";
import { bundleEntries } from "./entries.ts";

const manifest = JSON.parse(readFileSync("package.json", "utf8"));
const entries = bundleEntries(manifest);
if (entries.length === 0) throw new Error(`${manifest.name}: no export names a source and a dist module`);

await build({
  entryPoints: entries.map((e) => ({ in: e.source, out: e.out })),
  outdir: "dist",
  bundle: true,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  format: "esm",
  platform: "neutral",
  target: "es2022",
  packages: "external",
  // Built-ins are external too under platform "neutral" only when named: node:* is what the sources use.
  external: ["node:*"],
  // No keepNames: error classes set `name` themselves, and esbuild renames a function only when two modules'
  // top-level names collide; keepNames would add a call per function to every file users load.
  legalComments: "none",
  logLevel: "warning",
});
