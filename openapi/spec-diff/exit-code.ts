// The exit code of `pnpm spec:diff`: what CI acts on.
import type { ChangesetVerdict } from "./changesets.ts";
import type { Change } from "./types.ts";

/**
 * 1 when a change breaks clients (two files compared) or a breaking change lacks its changesets (PR mode), else 0.
 * Changes to review and security changes that break no client exit 0: the report lists them for a person.
 *
 * @example
 * process.exitCode = exitCodeOf(diffSpecs(oldDoc, newDoc), { prMode: false });
 */
export function exitCodeOf(changes: Change[], options: { prMode: boolean; changesets?: ChangesetVerdict[] }): 0 | 1 {
  if (options.changesets?.some((v) => !v.ok)) return 1;
  // In PR mode a breaking change that carries its changesets is allowed: it is announced, not accidental.
  return changes.some((c) => c.breaking) && !options.prMode ? 1 : 0;
}
