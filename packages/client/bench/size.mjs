// Minified + gzipped size of the client entry as a bundler ships it: esbuild bundle of dist/index.js with its
// dependencies (openapi-fetch, @exchange-kit/signing's Web Crypto entry, @exchange-kit/types' route table),
// minified ESM for a neutral (browser/Workers) platform.
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
  write: false,
  metafile: true,
  logLevel: "silent",
});
const code = result.outputFiles[0].contents;
const gzip = gzipSync(code, { level: 9 }).length;
// Minified bytes per package, from esbuild's metafile.
const inputs = {};
for (const [file, info] of Object.entries(Object.values(result.metafile.outputs)[0].inputs)) {
  const pkg =
    /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ??
    (file.includes("/signing/")
      ? "@exchange-kit/signing"
      : file.includes("/types/")
        ? "@exchange-kit/types"
        : "@exchange-kit/client");
  inputs[pkg] = (inputs[pkg] ?? 0) + info.bytesInOutput;
}
console.log(
  `dist/index.js  minified ${code.length} B, gzipped ${gzip} B (${(gzip / 1024).toFixed(1)} KB; target < ${LIMIT / 1024} KB${gzip >= LIMIT ? ", OVER" : ""})`,
);
for (const [pkg, bytes] of Object.entries(inputs).sort((a, b) => b[1] - a[1])) {
  console.log(`  ${pkg.padEnd(24)} ${String(bytes).padStart(6)} B minified`);
}
