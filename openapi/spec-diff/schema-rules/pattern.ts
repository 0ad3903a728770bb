// `pattern`: a request pattern that accepts fewer strings breaks (a value sent before may now be refused), one that
// accepts more does not; a response pattern is the reverse (a client may now receive a value it did not expect).
// Whether one pattern accepts more or fewer strings than another is decided where the two can be compared
// position by position (regex/compare.ts); otherwise the change is listed for review, not classed breaking.
import { comparePatterns, type Relation } from "../regex/compare.ts";
import type { SchemaRule } from "./rule.ts";

export interface PatternVerdict {
  rule: "pattern-tightened" | "pattern-loosened" | "pattern-rewritten" | "pattern-changed";
  breaking: boolean;
  review: boolean;
}

/** The verdict on a pattern change whose new strings relate to the old ones by `relation`. */
export function patternVerdict(request: boolean, relation: Relation): PatternVerdict {
  if (relation === "narrower") return { rule: "pattern-tightened", breaking: request, review: false };
  if (relation === "wider") return { rule: "pattern-loosened", breaking: !request, review: false };
  if (relation === "equal") return { rule: "pattern-rewritten", breaking: false, review: false };
  return { rule: "pattern-changed", breaking: false, review: true };
}

/** The relation of a pattern change: none to one narrows, one to none widens. */
function relationOf(before: unknown, after: unknown): Relation {
  if (typeof before !== "string") return "narrower";
  if (typeof after !== "string") return "wider";
  return comparePatterns(before, after);
}

const DESCRIBED: Record<Relation, string> = {
  narrower: "accepts fewer strings",
  wider: "accepts more strings",
  equal: "the same strings match",
  unknown: "cannot tell whether it accepts more or fewer strings: review",
};

const shown = (pattern: unknown) => (typeof pattern === "string" ? `\`${pattern}\`` : "none");

export const patternRule: SchemaRule = ({ oldSchema, newSchema, request, report, reportForReview }) => {
  const before = oldSchema.pattern;
  const after = newSchema.pattern;
  if (before === after) return;
  const relation = relationOf(before, after);
  const verdict = patternVerdict(request, relation);
  const message = `pattern ${shown(before)} -> ${shown(after)}: ${DESCRIBED[relation]}`;
  if (verdict.review) reportForReview(verdict.rule, message);
  else report(verdict.rule, verdict.breaking, message);
};
