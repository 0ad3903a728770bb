// `default`: the value the service uses for a member a client leaves out. In a request, a client that omits the
// member relied on the old default, so a changed or removed default changes what its request means: breaking. A
// default added where none was documented only writes down what an omission means: not breaking. In a response
// `default` is an annotation: the service sends what it means and generated clients fill nothing in, so a change
// there is reported and never breaking.
import { same, show } from "../json.ts";
import type { Json } from "../types.ts";
import type { SchemaRule } from "./rule.ts";

/** Whether a default going from `before` to `after` (known to differ) can break a client. */
export function defaultChangeBreaks(request: boolean, before: Json | undefined, after: Json | undefined): boolean {
  return request && before !== undefined && !same(before, after);
}

function messageOf(request: boolean, before: Json | undefined, after: Json | undefined): string {
  if (before === undefined) return `default added: ${show(after!)}`;
  if (after === undefined)
    return `default ${show(before)} removed${request ? ": the spec no longer says what a request that leaves it out gets" : ""}`;
  return `default ${show(before)} -> ${show(after)}${request ? `: a request that leaves it out now gets ${show(after)}` : ""}`;
}

export const defaultRule: SchemaRule = ({ oldSchema, newSchema, request, report }) => {
  const before = oldSchema.default;
  const after = newSchema.default;
  if (same(before, after)) return;
  report("default-changed", defaultChangeBreaks(request, before, after), messageOf(request, before, after));
};
