#!/usr/bin/env node
// Entry point of `npm start` and `npm test` on a machine that has only Node and npm (any version from 18 on):
// it provides the pinned Node (`.node-version`, from the npm registry's node-<platform>-<arch> package) and the
// pinned pnpm in .tools/ (git-ignored), re-runs itself under that Node, installs the workspace from the lockfile,
// then runs the task with both on PATH (turbo needs the package manager's binary; tests spawn `node`).
// Only node: built-ins here: nothing is installed yet.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(import.meta.url), "../..");
const pinned = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).packageManager; // "pnpm@x.y.z"
const pnpmVersion = pinned.split("@")[1];
const nodeVersion = readFileSync(join(root, ".node-version"), "utf8").trim(); // "24.x.y"
const tools = join(root, ".tools");
const toolsBin = join(tools, "node_modules", ".bin");
// The registry's `node` package only installs this one through a preinstall script; taking it directly
// needs no install script at all. Official builds exist for linux/darwin/win32 on x64 and arm64.
const nodePackage = `node-${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
const toolsNode = join(tools, "node_modules", nodePackage, "bin", process.platform === "win32" ? "node.exe" : "node");

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

const env = { ...process.env, PATH: [toolsBin, process.env.PATH].join(delimiter) };

function version(command, args = ["--version"]) {
  const found = spawnSync(command, args, { env, encoding: "utf8", shell: process.platform === "win32" });
  return found.status === 0 ? found.stdout.trim().replace(/^v/, "") : undefined;
}

// A machine (or a CI runner set up from .node-version) may already run the pinned Node: then only pnpm is
// provided. Otherwise the pinned Node and pnpm come in one install, so neither prunes the other, and this
// script hands over to itself running under that Node.
const underPinnedNode = process.versions.node === nodeVersion;
const nodeMissing = !underPinnedNode && version(toolsNode) !== nodeVersion;
if (nodeMissing || version("pnpm") !== pnpmVersion) {
  const provide = underPinnedNode ? [pinned] : [`${nodePackage}@${nodeVersion}`, pinned];
  console.log(`> providing ${provide.join(" and ")} in .tools/ (running on node ${process.versions.node})`);
  execFileSync(
    "npm",
    ["install", "--prefix", tools, "--no-save", "--no-audit", "--no-fund", "--no-package-lock", ...provide],
    { stdio: "inherit", shell: process.platform === "win32" },
  );
}
if (!underPinnedNode) {
  const child = spawnSync(toolsNode, [fileURLToPath(import.meta.url), task, ...rest], { env, stdio: "inherit" });
  process.exit(child.status ?? 1);
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
      const summary = /\bTests\s+(.*\d+ (?:passed|failed|skipped).*)\(\d+\)\s*$/.exec(
        line.replace(/\u001b\[[0-9;]*m/g, ""),
      );
      if (!summary) continue;
      for (const [, n, kind] of summary[1].matchAll(/(\d+) (passed|failed|skipped)/g)) totals[kind] += Number(n);
    }
  });
  const code = await new Promise((resolve) => child.on("close", (c) => resolve(c ?? 1)));
  const failed = code !== 0 && totals.failed === 0 ? 1 : totals.failed;
  console.log(`\n${totals.passed} passed, ${failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
  return code;
}
