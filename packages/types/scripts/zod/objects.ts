// Objects: properties, required, additionalProperties, propertyNames, minProperties/maxProperties and
// dependentRequired.
//   additionalProperties absent/true: z.looseObject (unknown keys kept); false: z.strictObject; a schema:
//   .catchall(schema), or z.record(z.string(), schema) when there are no properties. A required member the
//   schema does not describe is z.unknown() (present, any value).
import { isPlainObject, type SchemaObject } from "@exchange-kit/spec-tools/json-schema";
import { propertyKey as key } from "../lib/names.ts";
import type { Compiler, Zod } from "./context.ts";
import { list, literal } from "./source.ts";

/** The members of the object's shape: each property (optional unless required), then required undescribed ones. */
function shapeEntries(compiler: Compiler, schema: SchemaObject, where: string): string[] {
  const properties = schema.properties ?? {};
  const required = schema.required ?? [];
  const entries: string[] = [];
  for (const [name, sub] of Object.entries(properties)) {
    const code = compiler.translate(sub, undefined, `${where}/properties/${name}`).code;
    entries.push(`${key(name)}: ${code}${required.includes(name) ? "" : ".optional()"}`);
  }
  for (const name of required) {
    if (!(name in properties)) entries.push(`${key(name)}: z.unknown()`);
  }
  return entries;
}

/** The object schema before the count check: a record when only keys and values are constrained, else a shape. */
function shapeOrRecord(compiler: Compiler, schema: SchemaObject, where: string): Zod {
  const entries = shapeEntries(compiler, schema, where);
  const extra = schema.additionalProperties;
  const keyCode =
    schema.propertyNames === undefined
      ? undefined
      : compiler.translate(schema.propertyNames, ["string"], `${where}/propertyNames`).code;
  const extraCode = () => compiler.translate(extra, undefined, `${where}/additionalProperties`).code;
  if (entries.length === 0 && extra !== undefined && extra !== true && extra !== false) {
    return { code: `z.record(${keyCode ?? "z.string()"}, ${extraCode()})`, duOk: false };
  }
  if (entries.length === 0 && keyCode !== undefined && extra !== false) {
    return { code: `z.record(${keyCode}, z.unknown())`, duOk: false };
  }
  const shape = list(entries, "{", "}");
  let code: string;
  if (extra === false) code = `z.strictObject(${shape})`;
  else if (extra === undefined || extra === true) code = `z.looseObject(${shape})`;
  else code = `z.object(${shape}).catchall(${extraCode()})`;
  if (keyCode !== undefined) {
    compiler.helpers.add("propertyNames");
    code += `.check(propertyNames(${keyCode}))`;
  }
  return { code, duOk: true };
}

/** The zod expression of an object schema's own keywords (dependentRequired aside: see dependentRequiredCheck). */
export function objectSchema(compiler: Compiler, schema: SchemaObject, where: string): Zod {
  const result = shapeOrRecord(compiler, schema, where);
  if (schema.minProperties === undefined && schema.maxProperties === undefined) return result;
  compiler.helpers.add("propertyCount");
  return {
    code: `${result.code}.check(propertyCount(${schema.minProperties ?? 0}, ${schema.maxProperties ?? "Infinity"}))`,
    duOk: result.duOk,
  };
}

/**
 * The `.check(...)` of dependentRequired (each present member brings the members it depends on), or "". It
 * applies whatever the schema's type (the helper passes over non-objects), so it is added after the type's own
 * expression, with the other checks.
 */
export function dependentRequiredCheck(compiler: Compiler, schema: SchemaObject): string {
  if (!isPlainObject(schema.dependentRequired)) return "";
  compiler.helpers.add("dependentRequired");
  return `.check(dependentRequired(${literal(schema.dependentRequired)}))`;
}
