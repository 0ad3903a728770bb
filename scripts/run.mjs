#!/usr/bin/env node
// Entry point of `npm start` and `npm test` on a machine that has only Node and npm: it provides the pinned
// pnpm (in .tools/, git-ignored), installs the workspace from the lockfile, then runs the task with pnpm on
// PATH (turbo needs the package manager's binary). Only node: built-ins here: nothing is installed yet.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(import.meta.url), "../..");
const pinned = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).packageManager; // "pnpm@x.y.z"
const pnpmVersion = pinned.split("@")[1];
const toolsBin = join(root, ".tools", "node_modules", ".bin");

const tasks = {
  install: [],
  main: ["run", "main"],
  test: ["exec", "turbo", "run", "test", "--output-logs=full"],
};
const [task, ...rest] = process.argv.slice(2);
if (!tasks[task]) {
  console.error(`usage: node scripts/run.mjs <${Object.keys(tasks).join("|")}> [args]`);
  process.exit(2);
}

function pnpmOnPath(env) {
  const found = spawnSync("pnpm", ["--version"], { env, encoding: "utf8" });
  return found.status === 0 && found.stdout.trim() === pnpmVersion;
}

const env = { ...process.env, PATH: [toolsBin, process.env.PATH].join(delimiter) };
if (!pnpmOnPath(env)) {
  console.log(`> providing ${pinned} in .tools/`);
  execFileSync("npm", ["install", "--prefix", join(root, ".tools"), "--no-save", "--no-audit", "--no-fund", pinned], {
    stdio: "inherit",
  });
}
const installed = existsSync(join(root, "node_modules", ".modules.yaml"));
console.log(`> pnpm install --frozen-lockfile${installed ? " (checking)" : ""}`);
const run = (args) => spawnSync("pnpm", args, { cwd: root, env, stdio: "inherit" }).status ?? 1;
let status = run(["install", "--frozen-lockfile", "--reporter=append-only"]);
if (status === 0 && task === "test") status = await runTests([...tasks.test, ...rest]);
else if (status === 0 && tasks[task].length > 0) status = run([...tasks[task], ...rest]);
process.exit(status);

// Every package's vitest prints its own "Tests  N passed | M failed" line; one closing line adds them up.
async function runTests(args) {
  const child = spawn("pnpm", args, { cwd: root, env, stdio: ["ignore", "pipe", "inherit"] });
  const totals = { passed: 0, failed: 0, skipped: 0 };
  let pending = "";
  child.stdout.on("data", (chunk) => {
    process.stdout.write(chunk);
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop();
    for (const line of lines) {
      const summary = /\bTests\s+(.*\d+ (?:passed|failed|skipped).*)\(\d+\)\s*$/.exec(line.replace(/\u001b\[[0-9;]*m/g, ""));
      if (!summary) continue;
      for (const [, n, kind] of summary[1].matchAll(/(\d+) (passed|failed|skipped)/g)) totals[kind] += Number(n);
    }
  });
  const code = await new Promise((resolve) => child.on("close", (c) => resolve(c ?? 1)));
  const failed = code !== 0 && totals.failed === 0 ? 1 : totals.failed;
  console.log(`\n${totals.passed} passed, ${failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
  return code;
}
