// Keywords compared as a whole (`if`/`then`/`else`, `not`, ...): any change is reported, breaking when a
// request may now be refused by a rule it did not meet before.
import { same } from "../json.ts";
import type { SchemaRule } from "./rule.ts";

export const WHOLE_KEYWORDS = [
  "if",
  "then",
  "else",
  "not",
  "dependentRequired",
  "propertyNames",
  "multipleOf",
] as const;

const how = (before: unknown, after: unknown) =>
  before === undefined ? "added" : after === undefined ? "removed" : "changed";

export const wholeKeywordsRule: SchemaRule = ({ oldSchema, newSchema, request, report }) => {
  for (const keyword of WHOLE_KEYWORDS) {
    const before = oldSchema[keyword];
    const after = newSchema[keyword];
    if (same(before, after)) continue;
    report("rule-changed", request && after !== undefined, `\`${keyword}\` ${how(before, after)}`);
  }
};
