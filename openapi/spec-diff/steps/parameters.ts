// Parameters, matched by `in` and name: one removed, or one that became required or is new and required, breaks.
// A path parameter renamed in place (`/bank/{customer_id}` -> `/bank/{customerId}`) is matched with the one it was:
// the request on the wire is the same, but generated code names it, so the rename is reported on its own.
import { parametersOf } from "../operations.ts";
import type { JsonObject } from "../types.ts";
import { deprecationChange } from "./deprecation.ts";
import type { DiffContext, OperationStep } from "./step.ts";

/** The rule for a kept parameter whose `required` changed, or undefined. */
export function requiredChange(before: JsonObject, after: JsonObject) {
  if (before.required !== true && after.required === true)
    return { rule: "parameter-became-required", breaking: true, message: "parameter now required" };
  if (before.required === true && after.required !== true)
    return { rule: "parameter-became-optional", breaking: false, message: "parameter no longer required" };
  return undefined;
}

const templateNames = (path: string) => [...path.matchAll(/\{([^}/]*)\}/g)].map((m) => m[1]!);

/**
 * The path parameters renamed between two paths of the same shape, as `path old` -> `path new` keys of
 * parametersOf, by position in the template.
 *
 * @example
 * pathRenames("/bank/{customer_id}", "/bank/{customerId}"); // Map { "path customer_id" => "path customerId" }
 */
export function pathRenames(oldPath: string, newPath: string): Map<string, string> {
  const before = templateNames(oldPath);
  const after = templateNames(newPath);
  const renames = new Map<string, string>();
  if (before.length !== after.length) return renames;
  before.forEach((name, i) => {
    if (after[i] !== name) renames.set(`path ${name}`, `path ${after[i]}`);
  });
  return renames;
}

/**
 * Breaking: the request bytes are the same, but generated code changes. @exchange-kit/client takes path
 * parameters by position and keeps compiling; the generated types key operations and paths by these names
 * (`paths["/bank/{customerId}"]`, `OperationPathParams<...>`), so TypeScript code that uses them no longer compiles.
 */
const RENAMED = {
  rule: "path-parameter-renamed",
  breaking: true,
  message: (from: string) =>
    `renamed from ${from.slice("path ".length)}: same request bytes; source-breaking for generated TypeScript (the path's key and the parameter's name in @exchange-kit/types change; the client's positional arguments do not)`,
};

function compareKept(ctx: DiffContext, key: string, before: JsonObject, after: JsonObject, where: string): void {
  const at = `${where} parameter ${key}`;
  const change = requiredChange(before, after);
  if (change) ctx.add({ rule: change.rule, breaking: change.breaking, where: at, message: change.message });
  const deprecation = deprecationChange("parameter", before, after);
  if (deprecation) ctx.add({ ...deprecation, where: at });
  ctx.compareSchemas("request", before.schema, after.schema, `${at}:`);
}

export const parametersStep: OperationStep = (ctx, { old, current, where }) => {
  const before = parametersOf(ctx.oldDoc, old);
  const after = parametersOf(ctx.newDoc, current);
  const renames = pathRenames(old.path, current.path);
  for (const [oldKey, p] of before) {
    const key = renames.get(oldKey) ?? oldKey;
    const q = after.get(key);
    if (q && key !== oldKey) {
      ctx.add({
        rule: RENAMED.rule,
        breaking: RENAMED.breaking,
        where: `${where} parameter ${key}`,
        message: RENAMED.message(oldKey),
      });
    }
    if (q) compareKept(ctx, key, p, q, where);
    else
      ctx.add({
        rule: "parameter-removed",
        breaking: true,
        where: `${where} parameter ${oldKey}`,
        message: "parameter removed",
      });
  }
  const renamedTo = new Set(renames.values());
  for (const [key, q] of after) {
    if (before.has(key) || renamedTo.has(key)) continue;
    const required = q.required === true;
    ctx.add({
      rule: required ? "parameter-added-required" : "parameter-added-optional",
      breaking: required,
      where: `${where} parameter ${key}`,
      message: `${required ? "required" : "optional"} parameter added`,
    });
  }
};
