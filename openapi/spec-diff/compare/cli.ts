// node openapi/spec-diff/compare/cli.ts [--ours-only]
// Runs every mutation of mutations.json against the bundled spec through spec:diff and through Optic, records the
// verdicts in results.json and writes the table into openapi/spec-diff/README.md. --ours-only keeps the recorded
// Optic verdicts (of unchanged mutations) and only runs spec:diff: no install, no network, seconds instead of the
// half hour Optic takes (about a minute per run on this spec).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { diffSpecs } from "../diff.ts";
import { loadSpec, repoRoot, specPath } from "../load.ts";
import type { JsonObject } from "../types.ts";
import { applyPatch } from "./json-patch.ts";
import {
  compareDir,
  type Mutation,
  type MutationResult,
  patchHash,
  readMutations,
  readResults,
  resultsFile,
  type Results,
} from "./mutations.ts";
import { installOptic, OPTIC_VERSION, runOptic } from "./optic.ts";
import { comparisonTable, withTable } from "./table.ts";
import { opticVerdict, ourVerdict } from "./verdicts.ts";

const { values } = parseArgs({ options: { "ours-only": { type: "boolean" } } });
const base = loadSpec(join(repoRoot, specPath));
const mutations = readMutations();
const recorded = new Map(readResults().mutations.map((r) => [r.id, r]));
const work = mkdtempSync(join(tmpdir(), "spec-diff-compare-"));
const baseFile = join(work, "base.json");
writeFileSync(baseFile, JSON.stringify(base));
const optic = values["ours-only"] ? undefined : installOptic();

function measure(mutation: Mutation, index: number): MutationResult {
  const mutated = applyPatch<JsonObject>(base, mutation.patch);
  const changes = diffSpecs(base, mutated);
  const patch = patchHash(mutation);
  const result: MutationResult = {
    id: mutation.id,
    patch,
    ours: ourVerdict(changes),
    rules: [...new Set(changes.map((c) => c.rule))],
  };
  const before = recorded.get(mutation.id);
  if (optic) {
    const file = join(work, `${mutation.id}.json`);
    writeFileSync(file, JSON.stringify(mutated));
    const run = runOptic(optic, baseFile, file);
    if (run.exitCode > 1)
      console.error(
        `${mutation.id}: Optic exited ${run.exitCode}: ${run.stderr.trim().split("\n").slice(-3).join(" ")}`,
      );
    else result.optic = opticVerdict(run.exitCode, run.changelog);
  } else if (before?.optic && before.patch === patch) result.optic = before.optic;
  console.error(
    `${index + 1}/${mutations.length} ${mutation.id}: spec:diff ${result.ours}, Optic ${result.optic ?? "not measured"}`,
  );
  return result;
}

try {
  const previous = readResults().optic;
  const results: Results = {
    optic: optic ? { version: OPTIC_VERSION, measured: new Date().toISOString().slice(0, 10) } : previous,
    mutations: mutations.map(measure),
  };
  writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  // In the repository's format (Biome), so a rerun leaves `pnpm check` clean.
  execFileSync(join(repoRoot, "node_modules", ".bin", "biome"), ["format", "--write", resultsFile], {
    stdio: "ignore",
  });
  const readme = join(compareDir, "..", "README.md");
  writeFileSync(readme, withTable(readFileSync(readme, "utf8"), comparisonTable(mutations, results)));
  process.stdout.write(comparisonTable(mutations, results));
} finally {
  rmSync(work, { recursive: true, force: true });
}
