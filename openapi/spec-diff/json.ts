// Reading a bundled OpenAPI document as plain JSON: objects, internal references, and values written for a report.
import type { Json, JsonObject } from "./types.ts";

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value a `#/...` pointer names in a document, or undefined. */
function pointed(doc: JsonObject, ref: string): Json | undefined {
  let target: Json | undefined = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    target = isObject(target) ? target[key] : undefined;
  }
  return target;
}

/** Follows `#/...` references within a document (chains too); anything else is returned as is. */
export function deref(doc: JsonObject, value: Json | undefined, depth = 0): Json | undefined {
  if (!isObject(value) || typeof value.$ref !== "string" || depth > 32) return value;
  const ref = value.$ref;
  if (!ref.startsWith("#/")) return value;
  // Beside a Reference Object (path item, parameter, response) 3.1 allows only summary and description.
  return deref(doc, pointed(doc, ref), depth + 1);
}

/** Keywords beside a schema's `$ref` that say nothing about what validates (annotations). */
const ANNOTATIONS = new Set(["$ref", "$comment", "description", "summary", "title", "examples", "example"]);

/**
 * The keywords beside a schema's `$ref` that constrain what validates (3.1 applies them together with the
 * referenced schema), or undefined when there are none or the value is no reference.
 *
 * @example
 * refSiblings({ $ref: "#/components/schemas/Uuid", pattern: "^a", description: "x" }); // { pattern: "^a" }
 */
export function refSiblings(value: Json | undefined): JsonObject | undefined {
  if (!isObject(value) || typeof value.$ref !== "string") return undefined;
  const kept = Object.entries(value).filter(([key]) => !ANNOTATIONS.has(key) && !key.startsWith("x-"));
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/**
 * The referenced schema with the constraining keywords beside the reference applied too: a keyword it lacks is
 * added, a `required` list is joined, and a keyword it has with another value goes into its `allOf`, where both
 * hold, as 3.1 reads them.
 */
function withSiblings(target: JsonObject, siblings: JsonObject): JsonObject {
  const out: JsonObject = { ...target };
  const extra: JsonObject[] = [];
  for (const [key, value] of Object.entries(siblings)) {
    if (!(key in out) || same(out[key], value)) out[key] = value;
    else if (key === "required" && Array.isArray(out.required) && Array.isArray(value))
      out.required = [...new Set([...out.required, ...value])];
    else extra.push({ [key]: value });
  }
  if (extra.length > 0) out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), ...extra];
  return out;
}

/**
 * A schema as it validates: `#/...` references followed (chains too), with the constraining keywords written
 * beside each reference applied (a `pattern` next to a `$ref` narrows what the referenced schema accepts).
 */
export function resolveSchema(doc: JsonObject, value: Json | undefined, depth = 0): Json | undefined {
  if (!isObject(value) || typeof value.$ref !== "string" || depth > 32) return value;
  if (!value.$ref.startsWith("#/")) return value;
  const target = resolveSchema(doc, pointed(doc, value.$ref), depth + 1);
  const siblings = refSiblings(value);
  return siblings && isObject(target) ? withSiblings(target, siblings) : target;
}

/** Whether two JSON values are equal as written (key order included, as the bundle writes them). */
export const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A value in a report: strings bare, anything else as JSON. */
export const show = (v: Json): string => (typeof v === "string" ? v : JSON.stringify(v));

/** Values in a report, comma separated. */
export const list = (vs: Iterable<Json>): string => [...vs].map(show).join(", ");
