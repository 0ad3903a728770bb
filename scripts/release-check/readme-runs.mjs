// The README examples marked to run (`<!-- readme-test: run -->`), run as a user runs them: each block is a file
// of the snippet project (written and type-checked by readmes.mjs, its packages installed from the registry), run
// with the installed packages against the installed cli's sandbox, in page order, each twice in a row, since a
// user runs an example again and the second run must not trip over what the first one created. Node strips the
// blocks' types.
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { checkPage, readmeFiles } from "./readmes.mjs";

/** The snippet files of the marked blocks, in page order. */
export function runnableSnippets(root) {
  return readmeFiles(root).flatMap((file) =>
    checkPage(relative(root, file), readFileSync(file, "utf8"))
      .snippets.filter((snippet) => snippet.run)
      .map((snippet) => snippet.file),
  );
}

/**
 * Runs each marked block `times` times in a row in `dir` (the snippet project) with `env` (the sandbox's URL and
 * credentials). @returns the number of failures (each printed).
 */
export function runReadmeExamples({ root, dir, env, times = 2, log, run }) {
  const files = runnableSnippets(root);
  let failures = 0;
  for (const file of files) {
    for (let attempt = 1; attempt <= times; attempt++) {
      try {
        const printed = run(process.execPath, [join("snippets", file)], { cwd: dir, env, log }).trim();
        console.log(`ok   ${file} (run ${attempt}): ${printed.split("\n").at(-1)}`);
      } catch (error) {
        failures++;
        console.error(`FAIL ${file} (run ${attempt}): ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  if (files.length === 0) {
    failures++;
    console.error("FAIL no README block is marked to run");
  }
  return failures;
}
