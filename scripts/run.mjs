#!/usr/bin/env node
// Entry point of `npm start` and `npm test` on a machine that has only Node and npm: it provides the pinned
// pnpm (in .tools/, git-ignored), installs the workspace from the lockfile, then runs the task with pnpm on
// PATH (turbo needs the package manager's binary). Only node: built-ins here: nothing is installed yet.
import { execFileSync, spawnSync } from "node:child_process";
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
  test: ["exec", "turbo", "run", "test", "--output-logs=errors-only"],
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
if (status === 0 && tasks[task].length > 0) status = run([...tasks[task], ...rest]);
process.exit(status);
