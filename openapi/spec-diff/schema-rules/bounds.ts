// Length, number, item and member-count bounds: a tightened bound breaks requests; responses only get narrower.
import type { SchemaRule } from "./rule.ts";

/** Each bound keyword in the order reported, and whether it is a lower bound (a larger value accepts less). */
export const BOUNDS: readonly (readonly [keyword: string, lower: boolean])[] = [
  ["minLength", true],
  ["minimum", true],
  ["exclusiveMinimum", true],
  ["minItems", true],
  ["minProperties", true],
  ["maxLength", false],
  ["maximum", false],
  ["exclusiveMaximum", false],
  ["maxItems", false],
  ["maxProperties", false],
];

/** Whether going from bound `before` to `after` accepts less (a new bound always does). */
export function isTighter(lower: boolean, before: unknown, after: unknown): boolean {
  if (typeof after !== "number") return false;
  if (typeof before !== "number") return true;
  return lower ? after > before : after < before;
}

export const boundsRule: SchemaRule = ({ oldSchema, newSchema, request, report }) => {
  for (const [keyword, lower] of BOUNDS) {
    const before = oldSchema[keyword];
    const after = newSchema[keyword];
    if (before === after) continue;
    const tighter = isTighter(lower, before, after);
    report(
      tighter ? "constraint-tightened" : "constraint-loosened",
      request && tighter,
      `${keyword} ${before ?? "none"} -> ${after ?? "none"}`,
    );
  }
};
