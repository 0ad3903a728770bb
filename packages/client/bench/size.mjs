// Minified + gzipped size of the client entry as a bundler ships it: esbuild bundle of dist/index.js with its
// dependencies (openapi-fetch, @exchange-kit/signing's Web Crypto entry, @exchange-kit/types' route table),
// minified ESM for a neutral (browser/Workers) platform, with code splitting as bundlers do for a dynamic import:
// "at import" is the entry and the chunks it imports statically (what every user loads); "lazy" is each chunk only
// a dynamic import loads (the OpenTelemetry spans, loaded with @opentelemetry/api on the first traced call).
import { build } from "esbuild";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const LIMIT = 12 * 1024;
const result = await build({
  entryPoints: [`${root}dist/index.js`],
  bundle: true,
  minify: true,
  format: "esm",
  platform: "neutral",
  mainFields: ["module", "main"],
  splitting: true,
  outdir: `${root}.size-out`,
  write: false,
  metafile: true,
  logLevel: "silent",
});
const outputs = result.metafile.outputs;
const contents = new Map(result.outputFiles.map((f) => [f.path.slice(f.path.indexOf(".size-out")), f.contents]));
const keyOf = (path) => path.slice(path.indexOf(".size-out"));
const entry = Object.keys(outputs).find((path) => outputs[path].entryPoint !== undefined);

/** The outputs `from` loads: statically, or only through a dynamic import. */
function reach(from, kinds, seen = new Set()) {
  seen.add(from);
  for (const { path, kind } of outputs[from].imports) {
    if (kinds.includes(kind) && outputs[path] !== undefined && !seen.has(path)) reach(path, kinds, seen);
  }
  return seen;
}
const atImport = reach(entry, ["import-statement"]);
const lazy = [...reach(entry, ["import-statement", "dynamic-import"])].filter((path) => !atImport.has(path));

const gzipOf = (paths) => {
  const parts = [...paths].map((path) => contents.get(keyOf(path)));
  const bytes = Buffer.concat(parts.map((part) => Buffer.from(part)));
  return { minified: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};
const packageOf = (file) =>
  /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ??
  (file.includes("/signing/")
    ? "@exchange-kit/signing"
    : file.includes("/types/")
      ? "@exchange-kit/types"
      : "@exchange-kit/client");

const main = gzipOf(atImport);
console.log(
  `at import: minified ${main.minified} B, gzipped ${main.gzip} B (${(main.gzip / 1024).toFixed(1)} KB; target < ${LIMIT / 1024} KB${main.gzip >= LIMIT ? ", OVER" : ""})`,
);
// Minified bytes per package, from esbuild's metafile.
const inputs = {};
for (const path of atImport) {
  for (const [file, info] of Object.entries(outputs[path].inputs)) {
    inputs[packageOf(file)] = (inputs[packageOf(file)] ?? 0) + info.bytesInOutput;
  }
}
for (const [pkg, bytes] of Object.entries(inputs).sort((a, b) => b[1] - a[1])) {
  console.log(`  ${pkg.padEnd(24)} ${String(bytes).padStart(6)} B minified`);
}
for (const path of lazy) {
  const { minified, gzip } = gzipOf([path]);
  const sources = Object.keys(outputs[path].inputs).map((file) => file.replace(/^.*\/(src|dist)\//, ""));
  console.log(`lazy: ${sources.join(", ")}: minified ${minified} B, gzipped ${gzip} B`);
}
