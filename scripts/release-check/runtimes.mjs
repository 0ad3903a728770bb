// The runtime matrix: the same smoke (matrix.mjs) under Node 20, 22 and 24, Bun and Deno, from an app that
// installed the published tarballs, and require() of the packages on each Node. Runtimes other than the
// running Node come through `npx -y`; a first run downloads them, so each run has a budget. Node is required;
// Bun and Deno are reported as skipped (not failed) when npx cannot fetch them here.
import { spawn } from "node:child_process";

const RUNS = [
  { name: "Node 20", required: true, command: ["npx", "-y", "node@20"] },
  { name: "Node 22", required: true, command: ["npx", "-y", "node@22"] },
  { name: "Node 24", required: true, command: [process.execPath] },
  { name: "Bun 1", required: false, command: ["npx", "-y", "bun@1"] },
  {
    name: "Deno 2",
    required: false,
    command: ["npx", "-y", "deno@2", "run", "--allow-env", "--allow-net", "--allow-read", "--allow-sys"],
  },
];

function runFor(command, args, { cwd, env, budgetMs }) {
  return new Promise((resolve) => {
    const child = spawn(command[0], [...command.slice(1), ...args], { cwd, env: { ...env, NO_COLOR: "1" } });
    let output = "";
    const timer = setTimeout(() => {
      output += `\n(killed after ${budgetMs / 1000} s)`;
      child.kill("SIGKILL");
    }, budgetMs);
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", (e) => resolve({ code: -1, output: String(e) }));
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const reportOf = (output) => {
  const line = output.split("\n").find((l) => l.startsWith('{"runtime"'));
  return line === undefined ? undefined : JSON.parse(line);
};

/**
 * Runs the matrix in `cwd` (an app with the packages installed and matrix.mjs, require-esm.cjs copied in).
 * @returns the number of failures (each printed).
 */
export async function runMatrix({ cwd, env, log }) {
  const jobs = RUNS.flatMap((r) => [
    { run: r, label: `${r.name}: sign, client call, verifyWebhook, Fetch handler with dedup`, args: ["matrix.mjs"] },
    ...(r.name.startsWith("Node")
      ? [{ run: r, label: `${r.name}: require() of the ESM packages`, args: ["require-esm.cjs"] }]
      : []),
  ]);
  const outcomes = await Promise.all(
    jobs.map((job) => runFor(job.run.command, job.args, { cwd, env, budgetMs: 240_000 })),
  );
  let failures = 0;
  jobs.forEach((job, i) => {
    const { code, output } = outcomes[i];
    log(`--- ${job.label}\n${output}\n`);
    const report = reportOf(output);
    if (report === undefined && !job.run.required) {
      console.log(`SKIPPED ${job.label}: npx could not run it here (${output.trim().split("\n").at(-1)})`);
    } else if (report === undefined) {
      failures++;
      console.error(`FAIL ${job.label}: no result\n${output.trim().split("\n").slice(-15).join("\n")}`);
    } else if (code !== 0 || report.failures.length > 0) {
      failures++;
      console.error(`FAIL ${job.label} (${report.runtime}): ${report.failures.join("; ")}`);
    } else {
      console.log(`ok   ${job.label} (${report.runtime}, ${report.checks} checks)`);
    }
  });
  return failures;
}
