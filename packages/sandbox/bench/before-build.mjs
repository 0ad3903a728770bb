// The sandbox as it was before the PostgreSQL engine landed, built into a temporary directory, so one run measures
// the embedded SQLite engine of both builds. Only packages/sandbox (and the root tsconfigs) are taken from that
// commit; the other workspace packages resolve to this checkout's builds through symlinked node_modules (none of
// their runtime code changed since; the bench says which commit it built).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const root = fileURLToPath(new URL("../../..", import.meta.url));
const git = (...args) => execFileSync("git", ["-C", root, ...args], { encoding: "utf8" }).trim();

/** The first parent of the first-parent commit that added the PostgreSQL engine (the merge of work/pg). */
export function commitBeforePostgres() {
  const added = git(
    "log",
    "--first-parent",
    "--diff-filter=A",
    "--format=%H",
    "--",
    "packages/sandbox/src/store/postgres/pg-database.ts",
  )
    .split("\n")
    .at(-1);
  if (!added) throw new Error("no commit added packages/sandbox/src/store/postgres/pg-database.ts");
  return git("rev-parse", "--short", `${added}^1`);
}

/**
 * Builds packages/sandbox of `commit` with this checkout's TypeScript; `remove()` deletes the directory.
 *
 * @example
 * const before = buildAt(commitBeforePostgres()); // before.sandbox is its dist/sandbox.js
 */
export function buildAt(commit) {
  const dir = mkdtempSync(join(tmpdir(), "sandbox-before-"));
  try {
    const archive = join(dir, "source.tar");
    git("archive", `--output=${archive}`, commit, "packages/sandbox", "tsconfig.base.json", "tsconfig.build.json");
    execFileSync("tar", ["-x", "-f", archive, "-C", dir]);
    rmSync(archive);
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"));
    symlinkSync(join(packageDir, "node_modules"), join(dir, "packages/sandbox/node_modules"));
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    execFileSync(process.execPath, [tsc, "-p", join(dir, "packages/sandbox/tsconfig.build.json")], {
      stdio: ["ignore", "ignore", "inherit"],
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    commit,
    sandbox: join(dir, "packages/sandbox/dist/sandbox.js"),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
