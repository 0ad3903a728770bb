// Cold import time of the client's entry (dist/index.js) as a fresh Node process pays it, beside the floor (an
// empty module: what the first dynamic import costs before any code of ours), what the client is built on
// (openapi-fetch, @exchange-kit/signing) and a peer (openai, a devDependency). Each sample is a new process that
// times `await import(...)` of one module; the median and the range of the samples are printed, wall and CPU time
// (CPU time is less disturbed by other load on the machine).
//
//   node bench/import.mjs [samples=21]
//   BEFORE=.before/dist/index.js node bench/import.mjs   (adds an earlier build of the client, copied there first)
import { execFileSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

const samples = Number(process.argv[2] ?? 21);
const root = fileURLToPath(new URL("..", import.meta.url));
const targets = {
  "floor (an empty module)": "data:text/javascript,export{}",
  "@exchange-kit/client (dist)": pathToFileURL(`${root}dist/index.js`).href,
  ...(process.env.BEFORE
    ? { "@exchange-kit/client (BEFORE)": pathToFileURL(`${root}${process.env.BEFORE}`).href }
    : {}),
  "openapi-fetch": "openapi-fetch",
  "@exchange-kit/signing": "@exchange-kit/signing",
  "openai (peer)": "openai",
};

function once(specifier) {
  const script = `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(specifier)});
    const u = process.cpuUsage(c); console.log(performance.now() - t, (u.user + u.system) / 1000);`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
  const [wall, cpu] = out.trim().split(" ").map(Number);
  return { wall, cpu };
}

const names = Object.keys(targets);
const times = Object.fromEntries(names.map((name) => [name, []]));
// Interleaved, so that a busy moment on the machine hits every module alike.
for (let i = 0; i < samples; i++) for (const name of names) times[name].push(once(targets[name]));
const stats = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return [sorted[sorted.length >> 1], sorted[0], sorted.at(-1)].map((x) => x.toFixed(1).padStart(7));
};
console.log(`cold import, ${samples} fresh processes each (Node ${process.versions.node}); ms`);
const head = ["median", "min", "max"].map((h) => h.padStart(7)).join(" ");
console.log(`${"".padEnd(30)} wall ${head}   cpu ${head}`);
for (const name of names) {
  const wall = stats(times[name].map((t) => t.wall));
  const cpu = stats(times[name].map((t) => t.cpu));
  console.log(`${name.padEnd(30)}      ${wall.join(" ")}       ${cpu.join(" ")}`);
}
