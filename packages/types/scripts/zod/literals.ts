// enum and const: z.literal, z.enum (strings only), z.null(), or a z.union of literals.
import { type Json, type SchemaObject, typeList, valueMatchesTypes } from "@exchange-kit/spec-tools/json-schema";
import { type Zod, zod } from "./context.ts";
import { list, literal } from "./source.ts";

/** The zod expression admitting exactly `values` (scalars only). */
export function literals(values: readonly Json[], where: string): string {
  for (const v of values) {
    if (v !== null && typeof v === "object")
      throw new Error(`${where}: object or array values in enum/const are not supported`);
  }
  if (values.length === 0) return "z.never()";
  if (values.length === 1) return values[0] === null ? "z.null()" : `z.literal(${literal(values[0] as Json)})`;
  if (values.every((v) => typeof v === "string")) return `z.enum(${list(values.map(literal), "[", "]")})`;
  return `z.union(${list(
    values.map((v) => (v === null ? "z.null()" : `z.literal(${literal(v)})`)),
    "[",
    "]",
  )})`;
}

/**
 * The schema's `const`, else its `enum` (less the values of a type `type` does not admit); undefined when it has
 * neither. Either one decides the value alone, so the other type keywords are not translated.
 */
export function enumOrConst(schema: SchemaObject, where: string): Zod | undefined {
  if ("const" in schema) return zod(literals([schema.const as Json], where));
  if (!Array.isArray(schema.enum)) return undefined;
  const types = typeList(schema.type);
  const values = types ? schema.enum.filter((v) => valueMatchesTypes(v, types)) : schema.enum;
  return zod(literals(values, where));
}
