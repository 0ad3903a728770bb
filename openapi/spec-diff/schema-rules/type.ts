// `type`: a request type that accepts less, or a response type that may carry more (made nullable), breaks.
import { list, same } from "../json.ts";
import type { JsonObject } from "../types.ts";
import type { SchemaRule } from "./rule.ts";

/** The types a schema allows; undefined when it does not say (any type). */
function typesOf(schema: JsonObject): Set<string> | undefined {
  const t = schema.type;
  if (typeof t === "string") return new Set([t]);
  if (Array.isArray(t)) return new Set(t.filter((x): x is string => typeof x === "string"));
  return undefined;
}

/** Whether `to` leaves out a type `from` allows (any type counts as one more). */
export function losesType(from: Set<string> | undefined, to: Set<string> | undefined): boolean {
  if (from === undefined) return to !== undefined;
  return to !== undefined && [...from].some((t) => !to.has(t));
}

const sorted = (types: Set<string> | undefined) => (types ? [...types].sort() : undefined);
const shown = (types: Set<string> | undefined) => (types ? list(types) : "any");

export const typeRule: SchemaRule = ({ oldSchema, newSchema, request, report }) => {
  const before = typesOf(oldSchema);
  const after = typesOf(newSchema);
  if (same(sorted(before), sorted(after))) return;
  const narrowed = losesType(before, after);
  const widened = losesType(after, before);
  report("type-changed", request ? narrowed : widened, `type ${shown(before)} -> ${shown(after)}`);
};
