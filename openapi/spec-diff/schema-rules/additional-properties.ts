// `additionalProperties`: two schemas are compared as the schema of any other member (`at.*`); otherwise a change
// breaks requests when the object closes or gains a schema, and responses when it opens.
import { isObject, same } from "../json.ts";
import type { Json } from "../types.ts";
import { memberAt, type SchemaRule } from "./rule.ts";

/** Whether a change of `additionalProperties` from `before` to `after` (neither both schemas) can break a client. */
export function additionalMembersBreak(request: boolean, before: Json | undefined, after: Json | undefined): boolean {
  if (request) return after === false || isObject(after);
  return before === false || (isObject(before) && after !== undefined);
}

export const additionalPropertiesRule: SchemaRule = ({ oldSchema, newSchema, at, request, report, compare }) => {
  const before = oldSchema.additionalProperties;
  const after = newSchema.additionalProperties;
  if (same(before, after)) return;
  if (isObject(before) && isObject(after)) {
    compare(before, after, memberAt(at, "*"));
    return;
  }
  const message = `additionalProperties ${JSON.stringify(before ?? true)} -> ${JSON.stringify(after ?? true)}`;
  report("additional-members-changed", additionalMembersBreak(request, before, after), message);
};
