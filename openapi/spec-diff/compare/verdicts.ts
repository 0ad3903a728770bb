// What each tool said about one mutation, and whether that is right: a breaking change must be classed breaking; a
// change that breaks nobody must be reported (a deprecation or a weaker security check that goes unmentioned is a
// miss) and not classed breaking.
import type { Change } from "../types.ts";

/** A tool's verdict: breaking, reported but not breaking, listed for review (not breaking), or nothing reported. */
export type Verdict = "breaking" | "not breaking" | "review" | "silent";
export type Expected = "breaking" | "not breaking";

/** Our verdict from the changes `diffSpecs` found. */
export function ourVerdict(changes: readonly Change[]): Verdict {
  if (changes.some((c) => c.breaking)) return "breaking";
  if (changes.some((c) => c.review)) return "review";
  return changes.length > 0 ? "not breaking" : "silent";
}

/** Optic's verdict from `optic diff --check --json`: exit 1 means a breaking-change check failed. */
export function opticVerdict(exitCode: number, changelog: unknown): Verdict {
  if (exitCode === 1) return "breaking";
  return hasChange(changelog) ? "not breaking" : "silent";
}

/** Whether Optic's changelog lists any change (a `change` member anywhere in it). */
export function hasChange(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasChange);
  if (node === null || typeof node !== "object") return false;
  return Object.entries(node).some(
    ([key, value]) => (key === "change" && typeof value === "string") || hasChange(value),
  );
}

/** Whether a verdict is right for a change whose truth is `expected`. */
export function isRight(expected: Expected, verdict: Verdict | undefined): boolean {
  if (expected === "breaking") return verdict === "breaking";
  return verdict === "not breaking" || verdict === "review";
}
