// Whether a new pattern accepts a superset or a subset of the strings an old one accepts, where that can be shown
// position by position: the two trees must have the same shape (as many alternatives matched, terms in the same
// order), and each position of one must accept a superset of the other's characters and repetitions. That is
// sound (a "wider" answer is always true: concatenation, alternation and repetition keep inclusion) but not
// complete: `^\d{2}\d$` against `^\d{3}$` is "unknown", and a person reviews it.
import { type CharSet, isSubset } from "./char-set.ts";
import { type Alternatives, parsePattern, type RegexNode, type Sequence, type Term } from "./parse.ts";

/** How the new pattern's strings relate to the old one's: the same, more (wider), fewer (narrower), or unknown. */
export type Relation = "equal" | "wider" | "narrower" | "unknown";

/** The relation of a whole made of parts related `a` and `b`. */
export function combine(a: Relation, b: Relation): Relation {
  if (a === "equal") return b;
  if (b === "equal" || a === b) return a;
  return "unknown";
}

/** From the two inclusions: does new include old (`widens`), does old include new (`narrows`). */
function fromInclusions(widens: boolean, narrows: boolean): Relation {
  if (widens && narrows) return "equal";
  if (widens) return "wider";
  return narrows ? "narrower" : "unknown";
}

const compareSets = (before: CharSet, after: CharSet) =>
  fromInclusions(isSubset(before, after), isSubset(after, before));

/** How a repetition range `after` relates to `before` (as sets of counts). */
const compareCounts = (before: Term, after: Term) =>
  fromInclusions(
    after.min <= before.min && before.max <= after.max,
    before.min <= after.min && after.max <= before.max,
  );

function compareNodes(before: RegexNode, after: RegexNode): Relation {
  if (before.kind === "set" && after.kind === "set") return compareSets(before.set, after.set);
  if (before.kind === "group" && after.kind === "group")
    return compareAlternatives(before.alternatives, after.alternatives);
  if (before.kind === "anchor" && after.kind === "anchor" && before.anchor === after.anchor) return "equal";
  return "unknown";
}

function compareSequences(before: Sequence, after: Sequence): Relation {
  if (before.length !== after.length) return "unknown";
  let relation: Relation = "equal";
  for (let i = 0; i < before.length && relation !== "unknown"; i++) {
    const term = combine(compareNodes(before[i]!.node, after[i]!.node), compareCounts(before[i]!, after[i]!));
    relation = combine(relation, term);
  }
  return relation;
}

const includes = (relation: Relation, direction: "wider" | "narrower") =>
  relation === "equal" || relation === direction;

/** Alternatives: wider when each old one is included in some new one, narrower when each new one is in an old one. */
function compareAlternatives(before: Alternatives, after: Alternatives): Relation {
  const widens = before.every((b) => after.some((a) => includes(compareSequences(b, a), "wider")));
  const narrows = after.every((a) => before.some((b) => includes(compareSequences(b, a), "narrower")));
  return fromInclusions(widens, narrows);
}

/**
 * How the strings `after` matches relate to those `before` matches, as far as the two can be compared.
 *
 * @example
 * comparePatterns("^(A|B)$", "^(A|B|C)$"); // "wider"
 * comparePatterns("^[A-Z]{3}$", "^[A-Z]{3,5}$"); // "wider"
 * comparePatterns("^\\d+$", "^[0-9]+$"); // "equal"
 * comparePatterns("^a+$", "^(?=b)"); // "unknown": a lookahead
 */
export function comparePatterns(before: string, after: string): Relation {
  if (before === after) return "equal";
  const old = parsePattern(before);
  const current = parsePattern(after);
  if (old === undefined || current === undefined) return "unknown";
  return compareAlternatives(old, current);
}
