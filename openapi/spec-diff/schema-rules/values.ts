// `enum` and `const`: the values a schema is limited to. Fewer values break requests; more values are flagged in
// responses (code that switches over every known value must handle them).
import { list, same } from "../json.ts";
import type { Json, JsonObject } from "../types.ts";
import type { SchemaPair, SchemaRule } from "./rule.ts";

/** The values a schema is limited to (`const` is a one-value enum); undefined when any value passes. */
function valuesOf(schema: JsonObject): Json[] | undefined {
  if ("const" in schema) return [schema.const as Json];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

/** e.g. `request-enum-narrowed`, `response-enum-widened`. */
export function enumRuleName(request: boolean, narrowed: boolean): string {
  return `${request ? "request" : "response"}-enum-${narrowed ? "narrowed" : "widened"}`;
}

const missingFrom = (values: Json[], others: Json[]) => values.filter((v) => !others.some((w) => same(v, w)));

function compareValueLists({ request, report }: SchemaPair, before: Json[], after: Json[]): void {
  const removed = missingFrom(before, after);
  const added = missingFrom(after, before);
  if (removed.length > 0) report(enumRuleName(request, true), request, `values removed: ${list(removed)}`);
  if (added.length === 0) return;
  const message = request
    ? `values added: ${list(added)}`
    : `values added: ${list(added)} (flagged: code that switches over every known value must handle them)`;
  report(enumRuleName(request, false), !request, message);
}

/** An enum appeared (the values are now fixed) or disappeared (any value may come). */
function reportLimitChanged({ request, report }: SchemaPair, before: Json[] | undefined, after: Json[] | undefined) {
  const limited = after !== undefined;
  const message = after
    ? `values now limited to: ${list(after)}`
    : `values no longer limited (were: ${list(before ?? [])})`;
  report(enumRuleName(request, limited), request === limited, message);
}

export const valuesRule: SchemaRule = (pair) => {
  const before = valuesOf(pair.oldSchema);
  const after = valuesOf(pair.newSchema);
  if (same(before, after)) return;
  if (before && after) compareValueLists(pair, before, after);
  else reportLimitChanged(pair, before, after);
};
