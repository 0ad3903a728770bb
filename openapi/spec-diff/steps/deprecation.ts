// Deprecations: an operation or a parameter marked `deprecated` is a notice to clients (plan to move off it), not a
// break; it is reported so that a deprecation never reads as "no change a client can notice".
import type { JsonObject } from "../types.ts";
import type { OperationStep } from "./step.ts";

/** The change of the `deprecated` flag of an operation or a parameter, or undefined when it did not change. */
export function deprecationChange(kind: "operation" | "parameter", before: JsonObject, after: JsonObject) {
  const was = before.deprecated === true;
  const is = after.deprecated === true;
  if (was === is) return undefined;
  return {
    rule: `${kind}-${is ? "deprecated" : "undeprecated"}`,
    breaking: false,
    message: `${kind} ${is ? "deprecated" : "no longer deprecated"}`,
  };
}

export const operationDeprecationStep: OperationStep = (ctx, { old, current, where }) => {
  const change = deprecationChange("operation", old.operation, current.operation);
  if (change) ctx.add({ ...change, where });
};
