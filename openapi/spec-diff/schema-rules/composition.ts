// `allOf`, `anyOf` and `oneOf`: members compared by position. anyOf and oneOf are both lists of alternatives;
// switching one for the other is judged by the members, and a member is named by the keyword the new schema uses. A new allOf member adds constraints (accepts less); a new
// alternative accepts more, which breaks responses.
import type { Json, JsonObject } from "../types.ts";
import type { SchemaRule } from "./rule.ts";

interface Composition {
  /** The name in the member locations, e.g. `(allOf 2)`, `(oneOf 1)`: the keyword the schema holds them under. */
  keywordOf: (oldSchema: JsonObject, newSchema: JsonObject) => string;
  membersOf: (schema: JsonObject) => Json[];
  /** Whether a new member lets more values through. */
  memberWidens: boolean;
}

const alternativesOf = (schema: JsonObject): Json[] =>
  Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : [];

/** `oneOf` when the schema's alternatives are a oneOf (the new schema's, else the old one's), `anyOf` otherwise. */
export const alternativesKeyword = (oldSchema: JsonObject, newSchema: JsonObject): "oneOf" | "anyOf" => {
  const schema = Array.isArray(newSchema.anyOf) || Array.isArray(newSchema.oneOf) ? newSchema : oldSchema;
  return !Array.isArray(schema.anyOf) && Array.isArray(schema.oneOf) ? "oneOf" : "anyOf";
};

export const COMPOSITIONS: readonly Composition[] = [
  {
    keywordOf: () => "allOf",
    membersOf: (schema) => (Array.isArray(schema.allOf) ? schema.allOf : []),
    memberWidens: false,
  },
  { keywordOf: alternativesKeyword, membersOf: alternativesOf, memberWidens: true },
];

/**
 * Whether a schema whose member list went from `before` to `after` members accepts more values. A first list of
 * either kind is a new constraint and a removed list drops one; between two lists, a new alternative widens and
 * a new allOf member narrows.
 *
 * @example
 * acceptsMore(0, 2, true); // false: a new anyOf restricts what was open
 */
export function acceptsMore(before: number, after: number, memberWidens: boolean): boolean {
  if (before === 0) return false;
  if (after === 0) return true;
  return after > before === memberWidens;
}

export const compositionRule: SchemaRule = ({ oldSchema, newSchema, at, request, report, compare }) => {
  for (const { keywordOf, membersOf, memberWidens } of COMPOSITIONS) {
    const before = membersOf(oldSchema);
    const after = membersOf(newSchema);
    const keyword = keywordOf(oldSchema, newSchema);
    const common = Math.min(before.length, after.length);
    for (let i = 0; i < common; i++) compare(before[i], after[i], `${at.replace(/:$/, "")} (${keyword} ${i + 1})`);
    if (before.length === after.length) continue;
    const accepts = acceptsMore(before.length, after.length, memberWidens);
    report("composition-changed", request !== accepts, `${keyword} has ${after.length} members (was ${before.length})`);
  }
};
