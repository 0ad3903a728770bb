// What the start-time check of a --db file costs: PRAGMA quick_check on a file of the benchmark's size
// (BENCH_ROWS customers and as many payouts, seeded through the store as bench/run.mjs does), and the whole
// open of the file by createSandbox (lock, identity, quick_check, schema) beside it. The file is in the OS page
// cache (it was just written), as it is for a restart; a cold cache adds the disk's read time.
// Usage: node bench/quick-check.mjs   env: BENCH_ROWS=100000  BENCH_RUNS=5   (runs the built package: pnpm build)
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { createSandbox } from "../dist/sandbox.js";
import { seed } from "./seed.mjs";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const dir = mkdtempSync(join(tmpdir(), "sandbox-quick-check-"));
const file = join(dir, "bench.db");
const organizations = [{ name: "Bench", apiKey: "bench_key", apiSecret: "bench_secret" }];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function openMs() {
  const started = performance.now();
  let opened = 0;
  const sandbox = await createSandbox(
    { db: file, organizations, autoProgressMs: false },
    { prepare: () => (opened = performance.now() - started) },
  );
  await sandbox.close();
  return opened;
}

function quickCheckMs() {
  const db = new DatabaseSync(file);
  try {
    const started = performance.now();
    const result = db.prepare("PRAGMA quick_check(1)").get().quick_check;
    const ms = performance.now() - started;
    if (result !== "ok") throw new Error(`quick_check: ${result}`);
    return ms;
  } finally {
    db.close();
  }
}

try {
  const sandbox = await createSandbox(
    { db: file, organizations, autoProgressMs: false },
    { prepare: (store, orgs) => seed(store, orgs, ROWS) },
  );
  await sandbox.close();
  const checks = Array.from({ length: RUNS }, quickCheckMs);
  const opens = [];
  for (let i = 0; i < RUNS; i++) opens.push(await openMs());
  console.log(
    `${ROWS} customers + ${ROWS} payouts, file ${(statSync(file).size / 2 ** 20).toFixed(1)} MB, ${RUNS} runs`,
  );
  console.log("| measure | median ms | min ms | max ms |");
  console.log("| - | -: | -: | -: |");
  for (const [name, values] of [
    ["PRAGMA quick_check", checks],
    ["createSandbox: open the file (lock, identity, quick_check, schema)", opens],
  ]) {
    console.log(
      `| ${name} | ${median(values).toFixed(0)} | ${Math.min(...values).toFixed(0)} | ${Math.max(...values).toFixed(0)} |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
