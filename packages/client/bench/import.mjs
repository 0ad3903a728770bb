// Cold import time of the client's entry (dist/index.js) as a fresh Node process pays it, against what it is built
// on: openapi-fetch and @exchange-kit/signing (whose Node entry loads node:crypto). Each sample is a new process
// that times `await import(...)` of one module; the median and the range of the samples are printed.
//
//   node bench/import.mjs [samples=21]
import { execFileSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

const samples = Number(process.argv[2] ?? 21);
const root = fileURLToPath(new URL("..", import.meta.url));
const targets = {
  "@exchange-kit/client (dist)": pathToFileURL(`${root}dist/index.js`).href,
  "openapi-fetch": "openapi-fetch",
  "@exchange-kit/signing": "@exchange-kit/signing",
};

function once(specifier) {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`;
  return Number(execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" }));
}

const names = Object.keys(targets);
const times = Object.fromEntries(names.map((name) => [name, []]));
// Interleaved, so that a busy moment on the machine hits every module alike.
for (let i = 0; i < samples; i++) for (const name of names) times[name].push(once(targets[name]));
console.log(`cold import, ${samples} fresh processes each (Node ${process.versions.node}); ms`);
console.log(`${"".padEnd(30)} ${"median".padStart(7)} ${"min".padStart(7)} ${"max".padStart(7)}`);
for (const name of names) {
  const xs = times[name].sort((a, b) => a - b);
  const cells = [xs[xs.length >> 1], xs[0], xs.at(-1)].map((x) => x.toFixed(1).padStart(7));
  console.log(`${name.padEnd(30)} ${cells.join(" ")}`);
}
