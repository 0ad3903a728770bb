// pnpm api:report                 writes the public API report of every package entry point to api-reports/
// pnpm api:check                  fails when a built package's API differs from its committed report
// pnpm api:check --base <git-ref> also fails when a report loses or changes a line since <git-ref> (a removed
//                                 or changed export) and the branch adds no changeset bumping that package
//                                 major (minor while the package is 0.x: the policy of `pnpm spec:diff`)
// Reports come from @microsoft/api-extractor over the built declarations (dist/*.d.ts): run `pnpm build` first.
// Entry points are read from each package's `exports`, so a new entry point gets its report with no edit here.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Extractor, ExtractorConfig, ExtractorLogLevel } from "@microsoft/api-extractor";
import { checkChangesets, newChangesets } from "../openapi/spec-diff/changesets.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const reportDir = join(root, "api-reports");

interface EntryPoint {
  packageName: string;
  packageDir: string;
  /** `types` for ".", `types.zod` for "./zod". */
  report: string;
  dts: string;
}

/** The `types` files of an export target, with the conditions that lead to each (`default` and `import` left out). */
function typesOf(target: unknown, conditions: string[] = []): [string[], string][] {
  if (typeof target !== "object" || target === null) return [];
  const out: [string[], string][] = [];
  for (const [key, value] of Object.entries(target)) {
    if (key === "types" && typeof value === "string") out.push([conditions, value]);
    else out.push(...typesOf(value, key === "default" || key === "import" ? conditions : [...conditions, key]));
  }
  return out;
}

/**
 * Every public declaration entry point of every package under packages/ (and the spec package, openapi/), from
 * its `exports`: one report per
 * distinct .d.ts, named `<package>` for the main one and `<package>.<subpath or condition>` for the others.
 */
export function entryPoints(): EntryPoint[] {
  const out: EntryPoint[] = [];
  const dirs = [
    ...readdirSync(join(root, "packages"))
      .sort()
      .map((dir) => join("packages", dir)),
    "openapi",
  ];
  for (const dir of dirs) {
    const packageDir = join(root, dir);
    const manifestPath = join(packageDir, "package.json");
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
      name: string;
      private?: boolean;
      exports?: Record<string, unknown>;
    };
    if (manifest.private) continue;
    const short = manifest.name.replace(/^@[^/]+\//, "");
    const names = new Map<string, string>();
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const sub = subpath === "." ? [] : [subpath.replace(/^\.\//, "").replace(/\//g, ".")];
      for (const [conditions, file] of typesOf(target)) {
        const name = [short, ...sub, ...conditions].join(".");
        const known = names.get(file);
        if (known === undefined || name.length < known.length) names.set(file, name);
      }
    }
    for (const [file, report] of [...names].sort(([, a], [, b]) => a.localeCompare(b))) {
      out.push({ packageName: manifest.name, packageDir, report, dts: join(packageDir, file) });
    }
  }
  return out;
}

/** Runs API Extractor on one entry point; in check mode a report that differs is an error. */
function extract(entry: EntryPoint, check: boolean, temp: string): { changed: boolean; ok: boolean } {
  if (!existsSync(entry.dts)) throw new Error(`${entry.dts} is missing: run \`pnpm build\` first`);
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: entry.packageDir,
      mainEntryPointFilePath: entry.dts,
      // The build config: dependencies resolve to their dist/*.d.ts as a user sees them (tsconfig.json points
      // workspace packages at their sources through the "@exchange-kit/source" condition).
      compiler: { tsconfigFilePath: join(entry.packageDir, "tsconfig.build.json") },
      apiReport: {
        enabled: true,
        reportFileName: `${entry.report}.api.md`,
        reportFolder: reportDir,
        reportTempFolder: temp,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      newlineKind: "lf",
      messages: {
        compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
        extractorMessageReporting: {
          default: { logLevel: ExtractorLogLevel.Warning },
          // Release tags (@public, @beta) are not used here: every export of an entry point is public.
          "ae-missing-release-tag": { logLevel: ExtractorLogLevel.None },
          // Doc comments are reviewed by people, not counted here.
          "ae-undocumented": { logLevel: ExtractorLogLevel.None },
          // Types re-exported from another workspace package are that package's API, recorded in its report.
          // Not written into the report: the warning names a file and line of the build, which moves with any edit.
          "ae-forgotten-export": { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
        },
        tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
      },
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: join(entry.packageDir, "package.json"),
  });
  const result = Extractor.invoke(config, {
    localBuild: !check,
    showVerboseMessages: false,
    messageCallback: (m) => {
      if (m.logLevel === ExtractorLogLevel.Warning || m.logLevel === ExtractorLogLevel.Error)
        console.error(`${entry.report}: ${m.text}`);
      m.handled = true;
    },
  });
  return { changed: result.apiReportChanged, ok: result.succeeded };
}

/** Lines of a report at a git ref that are gone now: removed or changed declarations. */
function removedLines(ref: string, report: string): string[] {
  let before: string;
  try {
    before = execFileSync("git", ["show", `${ref}:api-reports/${report}.api.md`], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch {
    return []; // a new entry point removes nothing
  }
  const now = new Set(readFileSync(join(reportDir, `${report}.api.md`), "utf8").split("\n"));
  return before.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("//") && !now.has(line));
}

function main(): number {
  const { values } = parseArgs({ options: { check: { type: "boolean" }, base: { type: "string" } } });
  const check = values.check === true;
  const temp = mkdtempSync(join(tmpdir(), "api-report-"));
  mkdirSync(reportDir, { recursive: true });
  let failed = false;
  const entries = entryPoints();
  try {
    for (const entry of entries) {
      const { changed, ok } = extract(entry, check, temp);
      if (check && changed) {
        console.error(
          `api-reports/${entry.report}.api.md is out of date: the public API of ${entry.packageName} changed. Run \`pnpm api:report\` and commit it.`,
        );
        failed = true;
      } else if (!ok) failed = true;
      else console.log(`${entry.report}: ${changed ? "report updated" : "unchanged"}`);
    }
    // A report whose entry point is gone (a removed subpath export) is stale.
    const current = new Set(entries.map((e) => `${e.report}.api.md`));
    for (const file of readdirSync(reportDir).filter((f) => f.endsWith(".api.md") && !current.has(f))) {
      if (check) {
        console.error(
          `api-reports/${file} has no entry point any more: run \`pnpm api:report\` and commit the removal.`,
        );
        failed = true;
      } else {
        rmSync(join(reportDir, file));
        console.log(`${file}: removed (no such entry point)`);
      }
    }
    if (values.base !== undefined) {
      const broken = new Map<string, { name: string; dir: string }>();
      for (const entry of entries) {
        const lost = removedLines(values.base, entry.report);
        if (lost.length === 0) continue;
        console.log(
          `${entry.report}: ${lost.length} line(s) removed or changed since ${values.base}, e.g. ${lost[0]!.trim()}`,
        );
        broken.set(entry.packageName, { name: entry.packageName, dir: entry.packageDir.slice(root.length + 1) });
      }
      for (const verdict of checkChangesets(root, newChangesets(root, values.base), [...broken.values()])) {
        if (verdict.ok) continue;
        console.error(
          `${verdict.name} ${verdict.version}: a removed or changed export needs a ${verdict.needed} changeset (found ${verdict.found ?? "none"}).`,
        );
        failed = true;
      }
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  return failed ? 1 : 0;
}

process.exitCode = main();
