// Reading a bundled OpenAPI document as plain JSON: objects, internal references, and values written for a report.
import type { Json, JsonObject } from "./types.ts";

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Follows `#/...` references within a document (chains too); anything else is returned as is. */
export function deref(doc: JsonObject, value: Json | undefined, depth = 0): Json | undefined {
  if (!isObject(value) || typeof value.$ref !== "string" || depth > 32) return value;
  const ref = value.$ref;
  if (!ref.startsWith("#/")) return value;
  let target: Json | undefined = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    target = isObject(target) ? target[key] : undefined;
  }
  // Siblings of $ref (3.1 allows them, e.g. a description) do not change what validates here.
  return deref(doc, target, depth + 1);
}

/** Whether two JSON values are equal as written (key order included, as the bundle writes them). */
export const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A value in a report: strings bare, anything else as JSON. */
export const show = (v: Json): string => (typeof v === "string" ? v : JSON.stringify(v));

/** Values in a report, comma separated. */
export const list = (vs: Iterable<Json>): string => [...vs].map(show).join(", ");
