// Which Node a part of the cli needs: Prism and the sandbox (node:sqlite) declare theirs in `engines`.

/**
 * Whether `version` (e.g. "22.12.0") meets a ">=X", ">=X.Y" or ">=X.Y.Z" range (missing parts are 0); any other
 * form of range, or none, is taken as met.
 *
 * @example
 * meetsNodeRange("20.20.2", ">=22.13"); // false
 * meetsNodeRange("24.21.0", ">=24.18.0"); // true
 */
export function meetsNodeRange(version: string, range: string | undefined): boolean {
  const min = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range?.trim() ?? "");
  if (!min) return true;
  const have = version.replace(/^v/, "").split(".").map(Number);
  for (let i = 0; i < 3; i++) {
    const a = have[i] ?? 0;
    const b = Number(min[i + 1] ?? 0);
    if (a !== b) return a > b;
  }
  return true;
}
