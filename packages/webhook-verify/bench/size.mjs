// Minified + gzipped size of each entry as a bundler ships it, and a check
// that the core entry pulls in neither zod nor Node built-ins.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));

/** Bundles `contents` (an ES module importing from dist/) the way an application's bundler would. */
async function measure(contents, external) {
  const result = await build({
    stdin: { contents, resolveDir: dist, loader: "js" },
    bundle: true,
    minify: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "neutral",
    external: ["node:*", ...external],
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length, inputs: Object.keys(result.metafile.inputs) };
}

const kb = (n) => `${(n / 1024).toFixed(2)} KB`;
const signing = ["@exchange-kit/signing"];
const rows = [
  ["core (.), own code; @exchange-kit/signing external", 'export * from "./index.js";', signing],
  ["core (.), with @exchange-kit/signing bundled (Web Crypto entry)", 'export * from "./index.js";', []],
  ["  only verifyWebhook imported, own code", 'export { verifyWebhook } from "./index.js";', signing],
  ["  only createWebhookHandler imported, own code", 'export { createWebhookHandler } from "./index.js";', signing],
  ["./node, own code", 'export * from "./node.js";', signing],
  ["./redis", 'export * from "./redis.js";', []],
  ["./zod, own code; zod schemas external", 'export * from "./zod.js";', [...signing, "@exchange-kit/types/zod"]],
];
console.log("entry sizes, esbuild --bundle --minify, gzip -9");
const measured = [];
for (const [label, contents, external] of rows) {
  const size = await measure(contents, external);
  measured.push(size);
  console.log(`${label.padEnd(66)} ${kb(size.min).padStart(9)} min ${kb(size.gzip).padStart(9)} gzip`);
}
const [own, whole] = measured;
const zod = whole.inputs.filter((path) => path.includes("zod"));
console.log(`core pulls in zod: ${zod.length > 0 ? `YES (${zod.join(", ")})` : "no"}`);
for (const [what, { gzip }] of [
  ["own code", own],
  ["with signing", whole],
]) {
  console.log(`target: core under 4 KB gzipped, ${what}: ${gzip < 4096 ? "met" : "NOT met"} (${kb(gzip)})`);
}
