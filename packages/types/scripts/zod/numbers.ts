// Numbers and integers: minimum/maximum, exclusiveMinimum/exclusiveMaximum (3.1's numeric form), multipleOf.
import type { SchemaObject } from "@exchange-kit/spec-tools/json-schema";

/** The zod expression of a number or integer schema's own keywords. */
export function numberSchema(type: "number" | "integer", schema: SchemaObject): string {
  let code = type === "integer" ? "z.int()" : "z.number()";
  if (schema.minimum !== undefined) code += `.gte(${schema.minimum})`;
  if (schema.maximum !== undefined) code += `.lte(${schema.maximum})`;
  if (schema.exclusiveMinimum !== undefined) code += `.gt(${schema.exclusiveMinimum})`;
  if (schema.exclusiveMaximum !== undefined) code += `.lt(${schema.exclusiveMaximum})`;
  if (schema.multipleOf !== undefined) code += `.multipleOf(${schema.multipleOf})`;
  return code;
}
