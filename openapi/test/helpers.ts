import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, found from this file so nothing depends on the machine or the working directory. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const specRoot = join(repoRoot, "openapi", "openapi.yaml");
export const fixtures = join(repoRoot, "openapi", "test", "fixtures");
export const redoclyConfig = join(repoRoot, "redocly.yaml");
const redoclyCli = join(repoRoot, "node_modules", "@redocly", "cli", "bin", "cli.js");

export interface LintProblem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location: { source: { ref: string }; pointer: string; reportOnKey?: boolean; start?: { line: number } }[];
}
export interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: LintProblem[];
}

/** Runs the Redocly CLI (the root devDependency) from the repository root. */
export function redocly(args: string[], timeoutMs = 60_000) {
  if (!existsSync(redoclyCli)) throw new Error(`Redocly CLI not found at ${redoclyCli}: run pnpm install at the root`);
  const run = spawnSync(process.execPath, [redoclyCli, ...args], {
    cwd: repoRoot,
    encoding: "utf8",
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
  });
  if (run.error) throw run.error;
  return run;
}

/** `redocly lint --format=json` of one description with a config (the root redocly.yaml by default). */
export function lint(api: string, config = redoclyConfig): LintReport {
  const run = redocly(["lint", api, `--config=${config}`, "--format=json", "--max-problems=10000"]);
  const start = run.stdout.indexOf("{");
  if (start < 0) throw new Error(`redocly lint printed no JSON (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(run.stdout.slice(start)) as LintReport;
}

/** One line per problem, for readable assertion failures. */
export function describeProblems(problems: LintProblem[]): string {
  return problems
    .map((p) => {
      const at = p.location[0];
      return `${p.ruleId} ${at?.source.ref}:${at?.start?.line ?? "?"} ${at?.pointer} — ${p.message}`;
    })
    .join("\n");
}

/** Kills a child process and its whole process group (it was spawned detached), ignoring one already gone. */
export function killTree(child: ChildProcess | undefined, signal: NodeJS.Signals = "SIGTERM") {
  if (!child || child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* already gone */
    }
  }
}

export { spawn };

/** The spec as one dereferenced JSON document (redocly bundle --dereferenced), for reading operations and examples. */
export function bundleSpec(api = specRoot): any {
  const dir = mkdtempSync(join(tmpdir(), "exchange-kit-bundle-"));
  try {
    const output = join(dir, "openapi.json");
    const run = redocly([
      "bundle",
      api,
      "--dereferenced",
      "--ext=json",
      `--output=${output}`,
      `--config=${redoclyConfig}`,
    ]);
    if (run.status !== 0 || !existsSync(output)) {
      throw new Error(`redocly bundle failed (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
    }
    return JSON.parse(readFileSync(output, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export interface SpecOperation {
  kind: "path" | "webhook";
  key: string; // the path, or the webhook name
  method: string;
  operationId: string;
  tags: string[];
  summary: string;
  operation: any;
}

/** Every operation of the bundled spec's paths and webhooks. */
export function operationsOf(bundled: any): SpecOperation[] {
  const list: SpecOperation[] = [];
  for (const [kind, map] of [
    ["path", bundled.paths ?? {}],
    ["webhook", bundled.webhooks ?? {}],
  ] as const) {
    for (const [key, item] of Object.entries<any>(map)) {
      for (const method of HTTP_METHODS) {
        const operation = item?.[method];
        if (!operation) continue;
        list.push({
          kind,
          key,
          method,
          operationId: operation.operationId,
          tags: operation.tags ?? [],
          summary: operation.summary ?? "",
          operation,
        });
      }
    }
  }
  return list;
}

/** The value of the first example of a response's application/json content. */
export function firstExample(operation: any, status: string): unknown {
  const media = operation?.responses?.[status]?.content?.["application/json"];
  if (!media) return undefined;
  if (media.examples) {
    const first = Object.values<any>(media.examples)[0];
    if (first && "value" in first) return first.value;
  }
  return media.example;
}
