// Minified + gzipped size of each entry as a bundler ships it, and a check
// that the core entry pulls in neither zod nor Node built-ins. Code splitting is on, as bundlers split a dynamic
// import: the figures are what loads at import; the tracing spans, loaded only with @opentelemetry/api, are a lazy
// chunk, printed on its own.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));

/** Bundles `contents` (an ES module importing from dist/) the way an application's bundler would. */
async function measure(contents, external) {
  const result = await build({
    stdin: { contents, resolveDir: dist, loader: "js", sourcefile: "entry.js" },
    bundle: true,
    minify: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "neutral",
    splitting: true,
    outdir: fileURLToPath(new URL("../.size-out/", import.meta.url)),
    external: ["node:*", ...external],
    logLevel: "silent",
  });
  const { outputs } = result.metafile;
  const code = new Map(result.outputFiles.map((file) => [file.path, file.contents]));
  const absolute = (path) => [...code.keys()].find((file) => file.endsWith(path));
  const entry = Object.keys(outputs).find((path) => outputs[path].entryPoint !== undefined);
  // The entry and what it imports statically; what only a dynamic import reaches is lazy.
  const reach = (from, kinds, seen = new Set()) => {
    seen.add(from);
    for (const { path, kind } of outputs[from].imports)
      if (kinds.includes(kind) && outputs[path] !== undefined && !seen.has(path)) reach(path, kinds, seen);
    return seen;
  };
  const main = reach(entry, ["import-statement"]);
  const lazy = [...reach(entry, ["import-statement", "dynamic-import"])].filter((path) => !main.has(path));
  const bytes = (paths) => Buffer.concat([...paths].map((path) => Buffer.from(code.get(absolute(path)))));
  const at = bytes(main);
  const later = bytes(lazy);
  return {
    min: at.length,
    gzip: gzipSync(at, { level: 9 }).length,
    lazyGzip: later.length === 0 ? 0 : gzipSync(later, { level: 9 }).length,
    inputs: [...main].flatMap((path) => Object.keys(outputs[path].inputs)),
  };
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
  const lazy = size.lazyGzip === 0 ? "" : ` (+${kb(size.lazyGzip)} gzip lazy: tracing spans)`;
  console.log(`${label.padEnd(66)} ${kb(size.min).padStart(9)} min ${kb(size.gzip).padStart(9)} gzip${lazy}`);
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
