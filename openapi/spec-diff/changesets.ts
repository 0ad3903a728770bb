// PR mode: a breaking spec change must come with a changeset of the matching bump for every package generated
// from or built on the spec. Policy: breaking = major; while a package is 0.x, breaking = minor (0.x minors are
// majors in semver, and changesets bumps 0.1.0 to 0.2.0 for a minor).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export type Bump = "patch" | "minor" | "major";
const RANK: Record<Bump, number> = { patch: 1, minor: 2, major: 3 };

/** The packages whose public surface follows the spec. */
export const SPEC_PACKAGES = [
  { name: "@exchange-kit/types", dir: "packages/types" },
  { name: "@exchange-kit/client", dir: "packages/client" },
] as const;

export interface ChangesetVerdict {
  name: string;
  version: string;
  needed: Bump;
  found: Bump | undefined;
  ok: boolean;
}

/** The bump a breaking change needs for a package at `version`. */
export function breakingBump(version: string): Bump {
  return version.split(".")[0] === "0" ? "minor" : "major";
}

/** The bumps a changeset file declares, by package (`"@scope/name": minor` lines of its front matter). */
export function parseChangeset(text: string): Map<string, Bump> {
  const out = new Map<string, Bump>();
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!front?.[1]) return out;
  for (const line of front[1].split(/\r?\n/)) {
    const m = /^\s*["']?([^"':]+)["']?\s*:\s*(patch|minor|major)\s*$/.exec(line);
    if (m?.[1] && m[2]) out.set(m[1].trim(), m[2] as Bump);
  }
  return out;
}

/** Changeset files present now but not at `base` (committed on the branch or not yet committed). */
export function newChangesets(root: string, base: string): string[] {
  const dir = join(root, ".changeset");
  let now: string[];
  try {
    now = readdirSync(dir).filter((f) => f.endsWith(".md") && f !== "README.md");
  } catch {
    return [];
  }
  const before = new Set(
    execFileSync("git", ["ls-tree", "--name-only", `${base}:.changeset`], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    })
      .split("\n")
      .filter(Boolean),
  );
  return now.filter((f) => !before.has(f)).map((f) => join(dir, f));
}

/** For each package (the spec's by default): the bump a breaking change needs, the largest one the new changesets declare, and ok. */
export function checkChangesets(
  root: string,
  files: string[],
  packages: readonly { name: string; dir: string }[] = SPEC_PACKAGES,
): ChangesetVerdict[] {
  const declared = files.map((f) => parseChangeset(readFileSync(f, "utf8")));
  return packages.map(({ name, dir }) => {
    const version = String(
      (JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as { version: string }).version,
    );
    const needed = breakingBump(version);
    let found: Bump | undefined;
    for (const bumps of declared) {
      const b = bumps.get(name);
      if (b && (!found || RANK[b] > RANK[found])) found = b;
    }
    return { name, version, needed, found, ok: found !== undefined && RANK[found] >= RANK[needed] };
  });
}
