// allOf, not and if/then/else.
//   allOf: merged into one schema (an object with the members' properties; a property declared twice gets both
//   constraints); members that cannot merge are z.intersection-ed and also checked one by one (the allOf helper).
//   not, if/then/else: checks (.check with a z.superRefine helper) with the subschemas, read with the parent's type.
import type { JsonType, SchemaObject } from "@exchange-kit/spec-tools/json-schema";
import { typeList } from "@exchange-kit/spec-tools/json-schema";
import { foldAllOf } from "../lib/merge.ts";
import { type Compiler, type Zod, zod } from "./context.ts";
import { list } from "./source.ts";

/** `allOf(a, b)` of every expression, left to right (the helper takes two). */
export function intersectAll(compiler: Compiler, codes: readonly string[]): string {
  compiler.helpers.add("allOf");
  return codes.reduce((acc, c) => `allOf(${acc}, ${c})`);
}

/**
 * A schema with allOf: its members and own keywords folded into one schema, translated; the members that do not
 * fold are intersected with it. `inherited` types the folded schema, `ownTypes` the members left apart.
 */
export function allOfSchema(
  compiler: Compiler,
  schema: SchemaObject,
  inherited: readonly JsonType[] | undefined,
  ownTypes: readonly JsonType[] | undefined,
  where: string,
): Zod {
  const { schema: merged, rest } = foldAllOf(compiler.doc, schema);
  const head = compiler.translate(merged, inherited, where);
  if (rest.length === 0) return head;
  const parts = [head, ...rest.map((m, i) => compiler.translate(m, ownTypes, `${where}/allOf/${i}`))];
  return zod(
    intersectAll(
      compiler,
      parts.map((p) => p.code),
    ),
  );
}

/** The `.check(not(...))` of `not`, or "". */
export function notCheck(compiler: Compiler, schema: SchemaObject, where: string): string {
  if (schema.not === undefined) return "";
  const not = compiler.translate(schema.not, typeList(schema.type), `${where}/not`);
  compiler.helpers.add("not");
  return `.check(not(${not.code}))`;
}

/** The `.check(conditional(...))` of if/then/else, or "" (also for an `if` without `then` or `else`). */
export function conditionalCheck(compiler: Compiler, schema: SchemaObject, where: string): string {
  if (schema.if === undefined || (schema.then === undefined && schema.else === undefined)) return "";
  const types = typeList(schema.type);
  const ifCode = compiler.translate(schema.if, types, `${where}/if`).code;
  const thenCode =
    schema.then === undefined ? "undefined" : compiler.translate(schema.then, types, `${where}/then`).code;
  const elseCode =
    schema.else === undefined ? "undefined" : compiler.translate(schema.else, types, `${where}/else`).code;
  compiler.helpers.add("conditional");
  return `.check(${list([ifCode, thenCode, elseCode], "conditional(", ")")})`;
}
