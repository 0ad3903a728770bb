// The release check never touches the working tree: it releases from a copy of it (tracked and untracked
// files, as git sees them, without ignored ones), installed from the lockfile and committed in a throwaway repo.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const quiet = { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" };

/** Copies the workspace at `root` to `dest` and makes it a git repository of one commit (changesets tags it). */
export function copyWorkspace(root, dest) {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    ...quiet,
  });
  for (const file of listed.split("\0").filter(Boolean)) {
    const to = join(dest, file);
    mkdirSync(dirname(to), { recursive: true });
    try {
      cpSync(join(root, file), to, { verbatimSymlinks: true });
    } catch (error) {
      if (error.code !== "ENOENT") throw error; // deleted in the working tree but not yet in the index
    }
  }
  const git = (...args) => execFileSync("git", args, { cwd: dest, ...quiet });
  git("init", "-q", "-b", "main");
  git("-c", "user.name=release-check", "-c", "user.email=release-check@localhost", "add", "-A");
  git(
    "-c",
    "user.name=release-check",
    "-c",
    "user.email=release-check@localhost",
    "commit",
    "-qm",
    "release check snapshot",
  );
}

/**
 * The workspace's published packages, each with its directory and manifest: packages/* in name order, then the
 * spec package at openapi/. Every script that packs, versions or installs them reads this one list.
 */
export function publishablePackages(root) {
  const dirs = [
    ...readdirSync(join(root, "packages"))
      .sort()
      .map((dir) => join(root, "packages", dir)),
    join(root, "openapi"),
  ];
  return dirs
    .map((dir) => ({ dir, ...JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }))
    .filter((pkg) => !pkg.private);
}
