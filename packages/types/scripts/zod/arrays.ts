// Arrays: items, minItems/maxItems, uniqueItems.
import type { SchemaObject } from "@exchange-kit/spec-tools/json-schema";
import type { Compiler } from "./context.ts";

/** The zod expression of an array schema's own keywords. */
export function arraySchema(compiler: Compiler, schema: SchemaObject, where: string): string {
  if (Array.isArray(schema.items)) throw new Error(`${where}: tuple "items" arrays are not supported`);
  let code = `z.array(${compiler.translate(schema.items, undefined, `${where}/items`).code})`;
  if (schema.minItems !== undefined) code += `.min(${schema.minItems})`;
  if (schema.maxItems !== undefined) code += `.max(${schema.maxItems})`;
  if (schema.uniqueItems === true) {
    compiler.helpers.add("uniqueItems");
    code += ".check(uniqueItems())";
  }
  return code;
}
