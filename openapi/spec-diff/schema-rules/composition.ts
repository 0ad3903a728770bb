// `allOf`, `anyOf` and `oneOf`: members compared by position. anyOf and oneOf are both lists of alternatives;
// switching one for the other is judged by the members. A new allOf member adds constraints (accepts less); a new
// alternative accepts more, which breaks responses.
import type { Json, JsonObject } from "../types.ts";
import type { SchemaRule } from "./rule.ts";

interface Composition {
  /** The name in the member locations, e.g. `(allOf 2)`. */
  keyword: "allOf" | "anyOf";
  /** The name in the report's message. */
  label: string;
  membersOf: (schema: JsonObject) => Json[];
  /** Whether a new member lets more values through. */
  memberWidens: boolean;
}

const alternativesOf = (schema: JsonObject): Json[] =>
  Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : [];

export const COMPOSITIONS: readonly Composition[] = [
  {
    keyword: "allOf",
    label: "allOf",
    membersOf: (schema) => (Array.isArray(schema.allOf) ? schema.allOf : []),
    memberWidens: false,
  },
  { keyword: "anyOf", label: "anyOf/oneOf", membersOf: alternativesOf, memberWidens: true },
];

export const compositionRule: SchemaRule = ({ oldSchema, newSchema, at, request, report, compare }) => {
  for (const { keyword, label, membersOf, memberWidens } of COMPOSITIONS) {
    const before = membersOf(oldSchema);
    const after = membersOf(newSchema);
    const common = Math.min(before.length, after.length);
    for (let i = 0; i < common; i++) compare(before[i], after[i], `${at.replace(/:$/, "")} (${keyword} ${i + 1})`);
    if (before.length === after.length) continue;
    const accepts = after.length > before.length === memberWidens;
    report("composition-changed", request !== accepts, `${label} has ${after.length} members (was ${before.length})`);
  }
};
