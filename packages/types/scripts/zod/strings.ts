// Strings: format, minLength/maxLength, pattern.
import type { SchemaObject } from "@exchange-kit/spec-tools/json-schema";
import { literal } from "./source.ts";

/** The formats zod checks; any other format is an annotation (JSON Schema's default) and is not checked. */
export const FORMATS: ReadonlyMap<string, string> = new Map([
  // Any 8-4-4-4-12 hex string, as JSON Schema validators check a uuid (z.uuid() also checks the version bits).
  ["uuid", "z.guid()"],
  // RFC 3339: an offset (or Z) is required; "T" and "Z" in either case (the dateTime helper).
  ["date-time", "dateTime()"],
  ["date", "z.iso.date()"],
  ["email", "z.email()"],
  ["uri", "z.url()"],
  ["ipv4", "z.ipv4()"],
  ["ipv6", "z.ipv6()"],
]);

/** The helper a format's expression calls, if any. */
export const FORMAT_HELPERS: ReadonlyMap<string, "dateTime"> = new Map([["date-time", "dateTime"]]);

/** The zod expression of a string schema's own keywords. */
export function stringSchema(schema: SchemaObject): string {
  // A Map: an object would find `constructor` or `toString` formats on its prototype and emit a function's source.
  let code = FORMATS.get(schema.format ?? "") ?? "z.string()";
  if (schema.minLength !== undefined) code += `.min(${schema.minLength})`;
  if (schema.maxLength !== undefined) code += `.max(${schema.maxLength})`;
  if (schema.pattern !== undefined) {
    // A pattern JavaScript cannot compile (with the u flag the emitted code uses) fails here, not at import.
    new RegExp(schema.pattern, "u");
    code += `.regex(new RegExp(${literal(schema.pattern)}, "u"))`;
  }
  return code;
}
