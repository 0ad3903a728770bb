// How a changeset moves a version (the semver rules `changeset version` applies), for the version test.
export type Bump = "major" | "minor" | "patch";
const ORDER: Bump[] = ["patch", "minor", "major"];

/** info.version of an OpenAPI YAML document: the `version:` directly under the top-level `info:`. */
export function specVersion(yaml: string): string {
  const match = /^info:\n(?:[ \t]+.*\n|\n)*?( {2})version:[ \t]*['"]?([^'"\s]+)/m.exec(yaml);
  if (!match?.[2]) throw new Error("openapi.yaml has no info.version");
  return match[2];
}

/** The largest bump the changesets give this package, or undefined when none names it. */
export function pendingBump(changesets: string[], name: string): Bump | undefined {
  let best: Bump | undefined;
  for (const text of changesets) {
    const front = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? "";
    for (const line of front.split("\n")) {
      const entry = /^\s*["']?([^"':]+)["']?\s*:\s*(major|minor|patch)\s*$/.exec(line);
      if (entry?.[1] === name && (!best || ORDER.indexOf(entry[2] as Bump) > ORDER.indexOf(best)))
        best = entry[2] as Bump;
    }
  }
  return best;
}

/** The version after a bump. */
export function nextVersion(version: string, bump: Bump | undefined): string {
  const [major = 0, minor = 0, patch = 0] = version.split("-")[0]!.split(".").map(Number);
  if (bump === "major") return `${major + 1}.0.0`;
  if (bump === "minor") return `${major}.${minor + 1}.0`;
  if (bump === "patch") return `${major}.${minor}.${patch + 1}`;
  return version;
}
