import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Runs test/run-vectors.mjs against the built entries in other runtimes,
// fetched with npx (cached after the first run). Node 20 and 22 are required (the
// workspace itself runs on Node 24); Deno
// and Bun are skipped, with the reason printed, when npx cannot fetch them.

const root = fileURLToPath(new URL("..", import.meta.url));

interface Outcome {
  ok: boolean;
  output: string;
}

// A first run on a new machine downloads the runtime; a slow registry must not hang the suite, so each run
// has a budget: past it the child is killed and the run counts as "could not be run".
function run(command: string[], budgetMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn("npx", ["-y", ...command], { cwd: root, env: { ...process.env, NO_COLOR: "1" } });
    let output = "";
    const timer = setTimeout(() => {
      output += `\n(killed after ${budgetMs / 1000} s)`;
      child.kill("SIGKILL");
    }, budgetMs);
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", (e) => resolve({ ok: false, output: String(e) }));
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, output });
    });
  });
}

interface Report {
  runtime: string;
  checks: number;
  failures: unknown[];
}

function report(outcome: Outcome): Report | undefined {
  const line = outcome.output.split("\n").find((l) => l.startsWith('{"runtime"'));
  return line === undefined ? undefined : (JSON.parse(line) as Report);
}

const runtimes = [
  { name: "Node 20", required: true, budgetMs: 240_000, command: ["node@20", "test/run-vectors.mjs"] },
  { name: "Node 22", required: true, budgetMs: 240_000, command: ["node@22", "test/run-vectors.mjs"] },
  { name: "Deno", required: false, budgetMs: 90_000, command: ["deno", "run", "--allow-read", "test/run-vectors.mjs"] },
  { name: "Bun", required: false, budgetMs: 90_000, command: ["bun@1", "test/run-vectors.mjs"] },
];
const entryFiles = ["dist/node.js", "dist/index.js"];

// Start every run at once; each test awaits its own.
const started = new Map(
  runtimes.flatMap((r) => entryFiles.map((e) => [`${r.name} ${e}`, run([...r.command, e], r.budgetMs)] as const)),
);

describe.each(runtimes)("reference vectors on $name", (runtime) => {
  it.for(entryFiles)("pass through %s", { timeout: 260_000 }, async (entry, ctx) => {
    const outcome = await started.get(`${runtime.name} ${entry}`)!;
    const result = report(outcome);
    if (result === undefined && !runtime.required) {
      console.warn(`Skipped: ${runtime.name} could not be run with npx here:\n${outcome.output.slice(-500)}`);
      ctx.skip();
    }
    if (result === undefined) throw new Error(`${runtime.name} gave no result:\n${outcome.output}`);
    expect(result.failures).toEqual([]);
    expect(result.checks).toBeGreaterThan(100);
  });
});
