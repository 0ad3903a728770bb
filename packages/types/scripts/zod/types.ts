// The type keyword: `type` (and type arrays, null), OpenAPI 3.0's `nullable`, and the type a schema without one
// gets from its keywords or its parent. Each type's own keywords are translated by their module.
import {
  APPLICATORS,
  assertionKeys,
  impliedTypes,
  type JsonType,
  type SchemaObject,
  typeList,
} from "@exchange-kit/spec-tools/json-schema";
import { arraySchema } from "./arrays.ts";
import { type Compiler, type Zod, zod } from "./context.ts";
import { numberSchema } from "./numbers.ts";
import { objectSchema } from "./objects.ts";
import { list } from "./source.ts";
import { FORMAT_HELPERS, stringSchema } from "./strings.ts";

/**
 * A schema without `type`, `const` or `enum` is typed by the parent's types (`inherited`, in a subschema of an
 * applicator), else by its keywords when they belong to one type (OpenAPI usage: a schema with `properties` is
 * an object); only when it asserts something besides applicators, which are typed by their own subschemas.
 */
export function withImpliedType(schema: SchemaObject, inherited: readonly JsonType[] | undefined): SchemaObject {
  if (schema.type !== undefined || "const" in schema || schema.enum) return schema;
  const types = inherited ?? impliedTypes(schema);
  if (!types || !assertionKeys(schema).some((k) => !APPLICATORS.has(k))) return schema;
  return { ...schema, type: types.length === 1 ? (types[0] as JsonType) : [...types] };
}

/** `nullable: true` as JSON Schema says it: `null` added to `type` and to `enum`. */
export function withoutNullable(schema: SchemaObject): SchemaObject {
  if (schema.nullable !== true) return schema;
  const { nullable, ...rest } = schema;
  const types = typeList(rest.type);
  const out: SchemaObject = types ? { ...rest, type: [...types, "null"] } : rest;
  if ("enum" in out) out.enum = [...(out.enum ?? []), null];
  return out;
}

/** One type's expression, with the keywords of its family. */
function typed(compiler: Compiler, type: JsonType, schema: SchemaObject, where: string): Zod {
  switch (type) {
    case "string": {
      const helper = FORMAT_HELPERS.get(schema.format ?? "");
      if (helper) compiler.helpers.add(helper);
      return zod(stringSchema(schema));
    }
    case "integer":
    case "number":
      return zod(numberSchema(type, schema));
    case "boolean":
      return zod("z.boolean()");
    case "array":
      return zod(arraySchema(compiler, schema, where));
    case "object":
      return objectSchema(compiler, schema, where);
    default:
      throw new Error(`${where}: unknown type "${type}"`);
  }
}

/**
 * The expression of the schema's types: z.unknown() without any, one type's expression (`.nullable()` with
 * null), or a z.union of them. `integer` next to `number` adds nothing.
 */
export function typedSchema(compiler: Compiler, schema: SchemaObject, where: string): Zod {
  const types = typeList(schema.type);
  if (!types) return zod("z.unknown()");
  const unique = [...new Set(types)].filter((t) => !(t === "integer" && types.includes("number")));
  const parts = unique.filter((t) => t !== "null").map((t) => typed(compiler, t, schema, where));
  const nullable = unique.includes("null");
  if (parts.length === 0) return zod("z.null()");
  if (nullable && parts.length === 1) return zod(`${(parts[0] as Zod).code}.nullable()`);
  if (nullable) parts.push(zod("z.null()"));
  if (parts.length === 1) return parts[0] as Zod;
  return zod(
    `z.union(${list(
      parts.map((p) => p.code),
      "[",
      "]",
    )})`,
  );
}
