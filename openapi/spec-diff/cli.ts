// pnpm spec:diff <old> <new>         two spec files (a root or a bundle, YAML or JSON)
// pnpm spec:diff --base <git-ref>    the spec at <git-ref> against the working tree's (PR mode), and the
//                                    changesets the branch adds must bump the spec's packages enough
// Options: --report <file> also writes the Markdown report there (e.g. $GITHUB_STEP_SUMMARY); --sandbox (with
// --base) compares the sandbox's specs instead: each side's bundle with that side's overlays/sandbox.yaml applied.
// Exit: 0 no breaking change (and, in PR mode, changesets in order); 1 breaking (or changesets missing);
// 2 bad input.
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { checkChangesets, newChangesets, type ChangesetVerdict } from "./changesets.ts";
import { diffSpecs } from "./diff.ts";
import { exitCodeOf } from "./exit-code.ts";
import {
  loadSandboxSpec,
  loadSandboxSpecAtRef,
  loadSpec,
  loadSpecAtRef,
  repoRoot,
  specPath,
  SpecDiffInputError,
} from "./load.ts";
import { markdownReport } from "./report.ts";

const USAGE =
  "Usage: pnpm spec:diff <old-spec> <new-spec> | pnpm spec:diff --base <git-ref> [--sandbox]  [--report <file>]";

/** The two documents: two files, the spec at a ref and the working tree's, or the sandbox's spec of each. */
async function documents(base: string | undefined, sandbox: boolean, files: string[]) {
  if (base === undefined) return [loadSpec(files[0]!), loadSpec(files[1]!)] as const;
  if (sandbox) return [await loadSandboxSpecAtRef(base), await loadSandboxSpec()] as const;
  return [loadSpecAtRef(base), loadSpec(join(repoRoot, specPath))] as const;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      base: { type: "string" },
      sandbox: { type: "boolean" },
      report: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const prMode = values.base !== undefined;
  if ((prMode ? positionals.length !== 0 : positionals.length !== 2) || (values.sandbox && !prMode)) {
    console.error(USAGE);
    return 2;
  }
  const [oldFile, newFile] = positionals;
  const [oldDoc, newDoc] = await documents(values.base, values.sandbox === true, positionals);
  const changes = diffSpecs(oldDoc, newDoc);
  const breaking = changes.some((c) => c.breaking);
  let verdicts: ChangesetVerdict[] | undefined;
  if (prMode && breaking) verdicts = checkChangesets(repoRoot, newChangesets(repoRoot, values.base!));
  const which = values.sandbox ? "Sandbox spec diff" : "Spec diff";
  const title = prMode ? `${which} against ${values.base}` : `Spec diff: ${oldFile} -> ${newFile}`;
  const report = markdownReport(changes, { title, ...(verdicts ? { changesets: verdicts } : {}) });
  process.stdout.write(report);
  if (values.report) appendFileSync(values.report, report);
  if (verdicts?.some((v) => !v.ok))
    console.error("Breaking spec change without a changeset of the matching bump: run `pnpm changeset`.");
  return exitCodeOf(changes, { prMode, ...(verdicts ? { changesets: verdicts } : {}) });
}

try {
  process.exitCode = await main();
} catch (error) {
  if (error instanceof SpecDiffInputError) {
    console.error(error.message);
    process.exitCode = 2;
  } else throw error;
}
