// Minified + gzipped size of each entry as a bundler ships it: esbuild
// bundle, minify, ESM; neutral platform for the Web Crypto entry, node for
// the Node entry with node:crypto left external. Also the tree-shaken size
// of an app that signs and verifies but never parses JSON text.
import { build } from "esbuild";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const TARGET = 2048;

async function size(contents, platform) {
  const result = await build({
    stdin: { contents, resolveDir: root, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform,
    external: ["node:crypto"],
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  return { min: code.length, gz: gzipSync(code, { level: 9 }).length };
}

const rows = [];
for (const [entry, platform] of [
  ["./dist/index.js", "neutral"],
  ["./dist/node.js", "node"],
]) {
  rows.push([`${entry} (all exports)`, platform, await size(`export * from "${entry}";`, platform)]);
  rows.push([
    `${entry} (signing only, no canonicalizeText)`,
    platform,
    await size(`export { canonicalize, computeSignature, signRequest, verifySignature } from "${entry}";`, platform),
  ]);
}
for (const [what, platform, { min, gz }] of rows) {
  const mark = gz < TARGET ? "under" : "over";
  console.log(
    `${what.padEnd(52)} ${platform.padEnd(8)} ${String(min).padStart(6)} B min, ${String(gz).padStart(5)} B min+gz (${mark} the ${TARGET} B target)`,
  );
}
