// Parameters, matched by `in` and name: one removed, or one that became required or is new and required, breaks.
import { parametersOf } from "../operations.ts";
import type { JsonObject } from "../types.ts";
import type { DiffContext, OperationStep } from "./step.ts";

/** The rule for a kept parameter whose `required` changed, or undefined. */
export function requiredChange(before: JsonObject, after: JsonObject) {
  if (before.required !== true && after.required === true)
    return { rule: "parameter-became-required", breaking: true, message: "parameter now required" };
  if (before.required === true && after.required !== true)
    return { rule: "parameter-became-optional", breaking: false, message: "parameter no longer required" };
  return undefined;
}

function compareKept(ctx: DiffContext, key: string, before: JsonObject, after: JsonObject, where: string): void {
  const at = `${where} parameter ${key}`;
  const change = requiredChange(before, after);
  if (change) ctx.add({ rule: change.rule, breaking: change.breaking, where: at, message: change.message });
  ctx.compareSchemas("request", before.schema, after.schema, `${at}:`);
}

export const parametersStep: OperationStep = (ctx, { old, current, where }) => {
  const before = parametersOf(ctx.oldDoc, old);
  const after = parametersOf(ctx.newDoc, current);
  for (const [key, p] of before) {
    const q = after.get(key);
    if (q) compareKept(ctx, key, p, q, where);
    else
      ctx.add({
        rule: "parameter-removed",
        breaking: true,
        where: `${where} parameter ${key}`,
        message: "parameter removed",
      });
  }
  for (const [key, q] of after) {
    if (before.has(key)) continue;
    const required = q.required === true;
    ctx.add({
      rule: required ? "parameter-added-required" : "parameter-added-optional",
      breaking: required,
      where: `${where} parameter ${key}`,
      message: `${required ? "required" : "optional"} parameter added`,
    });
  }
};
