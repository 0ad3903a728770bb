// Compares two JSON Schemas (OpenAPI 3.1 flavour) as a client sees them. The direction decides what breaks:
// a client sends requests (the service may refuse more than before) and reads responses (it may receive more
// than before). References are resolved inside each document; a pair already compared is not compared twice.
// What each keyword's change means is in schema-rules/, one comparer per keyword family.
import { isObject, refSiblings, resolveSchema, same } from "./json.ts";
import { normalizeSchema } from "./merge-all-of.ts";
import { SCHEMA_RULES, type SchemaPair } from "./schema-rules/index.ts";
import type { Change, Direction, Json, JsonObject } from "./types.ts";

type Report = (change: Omit<Change, "where"> & { at: string }) => void;

export interface SchemaContext {
  oldDoc: JsonObject;
  newDoc: JsonObject;
  direction: Direction;
  report: Report;
  seen: Set<string>;
}

/** The reference a schema is, alone: one with constraining keywords beside it is compared where it is used. */
const refOf = (value: Json | undefined) =>
  isObject(value) && typeof value.$ref === "string" && refSiblings(value) === undefined ? value.$ref : undefined;

/**
 * Where a pair is reported, or undefined when it was compared already. One component, wherever it is used, is
 * compared once per direction and reported under its own name, which also ends recursion through
 * self-referencing schemas.
 */
function locate(ctx: SchemaContext, oldRaw: Json | undefined, newRaw: Json | undefined, at: string) {
  const oldRef = refOf(oldRaw);
  const newRef = refOf(newRaw);
  if (oldRef === undefined && newRef === undefined) return at;
  const shared = oldRef === newRef;
  const key = shared ? `${ctx.direction}|${oldRef}` : `${ctx.direction}|${oldRef}|${newRef}`;
  if (ctx.seen.has(key)) return undefined;
  ctx.seen.add(key);
  return shared ? `${ctx.direction} schema ${oldRef?.split("/").pop() ?? oldRef}:` : at;
}

function pairOf(ctx: SchemaContext, oldSchema: JsonObject, newSchema: JsonObject, at: string): SchemaPair {
  return {
    oldSchema,
    newSchema,
    at,
    request: ctx.direction === "request",
    report: (rule, breaking, message, where = at) => ctx.report({ rule, breaking, at: where, message }),
    reportForReview: (rule, message, where = at) =>
      ctx.report({ rule, breaking: false, review: true, at: where, message }),
    compare: (oldRaw, newRaw, where) => compareSchemas(ctx, oldRaw, newRaw, where),
  };
}

/** Compares two schemas at `at` (a readable location) and reports every difference a client can notice. */
export function compareSchemas(
  ctx: SchemaContext,
  oldRaw: Json | undefined,
  newRaw: Json | undefined,
  at: string,
): void {
  const where = locate(ctx, oldRaw, newRaw, at);
  if (where === undefined) return;
  const oldSchema = normalizeSchema(ctx.oldDoc, resolveSchema(ctx.oldDoc, oldRaw));
  const newSchema = normalizeSchema(ctx.newDoc, resolveSchema(ctx.newDoc, newRaw));
  if (isObject(oldSchema) && isObject(newSchema)) {
    const pair = pairOf(ctx, oldSchema, newSchema, where);
    for (const rule of SCHEMA_RULES) rule(pair);
  } else if (!same(oldSchema, newSchema)) {
    ctx.report({ rule: "schema-changed", breaking: true, at: where, message: "the schema was replaced" });
  }
}
