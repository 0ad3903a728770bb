#!/usr/bin/env node
// What readSpec() costs a consumer (the sandbox reads it once at start), beside the floor (reading the bytes,
// no parse) and two peers (the JSON import the sandbox uses today on its own copy; the dereferenced document),
// all in one run so the figures compare on the same, noisy machine. Sizes of the shipped files too.
import { readFileSync, statSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { readDereferencedSpec, readSpec, specFiles } from "../dist/index.js";

const ROUNDS = 30;
function measure(label, fn) {
  fn(); // warm the file cache and the code
  const times = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { label, median: times[Math.floor(ROUNDS / 2)], p90: times[Math.floor(ROUNDS * 0.9)] };
}

let importN = 0;
const rows = [
  measure("floor: readFileSync(openapi.json), no parse", () => readFileSync(specFiles.json, "utf8")),
  measure("readSpec()", () => readSpec()),
  measure("peer: readDereferencedSpec()", () => readDereferencedSpec()),
];
// A JSON import is cached per URL: a fresh query string makes each one a real load, as at a process start.
const importTimes = [];
for (let i = 0; i <= ROUNDS; i++) {
  const start = process.hrtime.bigint();
  await import(`${new URL(`file://${specFiles.json}`).href}?n=${importN++}`, { with: { type: "json" } });
  if (i > 0) importTimes.push(Number(process.hrtime.bigint() - start) / 1e6);
}
importTimes.sort((a, b) => a - b);
rows.push({
  label: "peer: import openapi.json with { type: 'json' }",
  median: importTimes[Math.floor(ROUNDS / 2)],
  p90: importTimes[Math.floor(ROUNDS * 0.9)],
});

const floor = rows[0].median;
console.log(`read (${ROUNDS} rounds, ms)            median    p90   x floor`);
for (const r of rows)
  console.log(
    `${r.label.padEnd(48)} ${r.median.toFixed(2).padStart(7)} ${r.p90.toFixed(2).padStart(6)} ${(r.median / floor).toFixed(1).padStart(7)}`,
  );
console.log("\nfile                              bytes    gzip");
for (const [name, path] of Object.entries(specFiles)) {
  console.log(
    `${name.padEnd(22)} ${String(statSync(path).size).padStart(14)} ${String(gzipSync(readFileSync(path)).length).padStart(7)}`,
  );
}
