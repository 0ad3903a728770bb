// pnpm spec:diff <old> <new>         two spec files (a root or a bundle, YAML or JSON)
// pnpm spec:diff --base <git-ref>    the spec at <git-ref> against the working tree's (PR mode), and the
//                                    changesets the branch adds must bump the spec's packages enough
// Options: --report <file> also writes the Markdown report there (e.g. $GITHUB_STEP_SUMMARY).
// Exit: 0 no breaking change (and, in PR mode, changesets in order); 1 breaking (or changesets missing);
// 2 bad input.
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { checkChangesets, newChangesets, type ChangesetVerdict } from "./changesets.ts";
import { diffSpecs } from "./diff.ts";
import { exitCodeOf } from "./exit-code.ts";
import { loadSpec, loadSpecAtRef, repoRoot, specPath, SpecDiffInputError } from "./load.ts";
import { markdownReport } from "./report.ts";

const USAGE = "Usage: pnpm spec:diff <old-spec> <new-spec> | pnpm spec:diff --base <git-ref>  [--report <file>]";

function main(): number {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { base: { type: "string" }, report: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const prMode = values.base !== undefined;
  if (prMode ? positionals.length !== 0 : positionals.length !== 2) {
    console.error(USAGE);
    return 2;
  }
  const [oldFile, newFile] = positionals;
  const oldDoc = prMode ? loadSpecAtRef(values.base!) : loadSpec(oldFile!);
  const newDoc = prMode ? loadSpec(join(repoRoot, specPath)) : loadSpec(newFile!);
  const changes = diffSpecs(oldDoc, newDoc);
  const breaking = changes.some((c) => c.breaking);
  let verdicts: ChangesetVerdict[] | undefined;
  if (prMode && breaking) verdicts = checkChangesets(repoRoot, newChangesets(repoRoot, values.base!));
  const title = prMode ? `Spec diff against ${values.base}` : `Spec diff: ${oldFile} -> ${newFile}`;
  const report = markdownReport(changes, { title, ...(verdicts ? { changesets: verdicts } : {}) });
  process.stdout.write(report);
  if (values.report) appendFileSync(values.report, report);
  if (verdicts?.some((v) => !v.ok))
    console.error("Breaking spec change without a changeset of the matching bump: run `pnpm changeset`.");
  return exitCodeOf(changes, { prMode, ...(verdicts ? { changesets: verdicts } : {}) });
}

try {
  process.exitCode = main();
} catch (error) {
  if (error instanceof SpecDiffInputError) {
    console.error(error.message);
    process.exitCode = 2;
  } else throw error;
}
