// One schema written two ways validates the same: `allOf: [{$ref: Base}, {properties: {extra}}]` and Base's
// members written out with `extra` beside them. Before comparing, a schema's `allOf` of plain object members is
// merged into one schema, so extending a shared schema instead of repeating it reads as no change, while a member
// added or removed in any part still does. An `allOf` this cannot merge exactly is left as written.
import { isObject, resolveSchema, same } from "./json.ts";
import type { Json, JsonObject } from "./types.ts";

/** The keywords a merged member may hold: anything else (a bound, a pattern, `not`) keeps the `allOf` as written. */
const MERGEABLE = new Set(["type", "properties", "required", "oneOf", "anyOf", "title", "description", "examples"]);
/** What a member's own annotations say about it alone; the merged schema keeps the outer schema's. */
const MEMBER_ANNOTATIONS = new Set(["title", "description", "examples"]);

/** A property schema that only annotates: it accepts any value, as if absent where the parent declares it. */
const ANNOTATION_ONLY = new Set(["description", "title", "examples", "$comment"]);

function mergeInto(out: JsonObject, part: JsonObject): boolean {
  for (const [key, value] of Object.entries(part)) {
    if (key === "properties" && isObject(value)) {
      const props: JsonObject = isObject(out.properties) ? { ...out.properties } : {};
      for (const [name, schema] of Object.entries(value)) {
        if (name in props && !same(props[name], schema)) return false;
        props[name] = schema;
      }
      out.properties = props;
    } else if (key === "required" && Array.isArray(value)) {
      out.required = [...new Set([...(Array.isArray(out.required) ? out.required : []), ...value])];
    } else if (key in out && !same(out[key], value)) {
      return false;
    } else {
      out[key] = value;
    }
  }
  return true;
}

/**
 * The schema with its `allOf` merged when every member (references followed) is a plain object schema whose
 * keywords do not clash; otherwise the schema unchanged.
 *
 * @example
 * mergeAllOf(doc, { allOf: [{ properties: { a: {} } }, { required: ["a"] }] }); // { properties: { a: {} }, required: ["a"] }
 */
export function mergeAllOf(doc: JsonObject, schema: Json | undefined): Json | undefined {
  if (!isObject(schema) || !Array.isArray(schema.allOf)) return schema;
  const { allOf, ...outer } = schema;
  const members = allOf.map((member) => mergeAllOf(doc, resolveSchema(doc, member)));
  const out: JsonObject = {};
  for (const member of members) {
    if (!isObject(member) || Object.keys(member).some((key) => !MERGEABLE.has(key) && !key.startsWith("x-"))) {
      return schema;
    }
    // A member's extensions and annotations describe it alone; the outer schema's are the merged schema's.
    const constraints = Object.fromEntries(
      Object.entries(member).filter(([key]) => !MEMBER_ANNOTATIONS.has(key) && !key.startsWith("x-")),
    );
    if (!mergeInto(out, constraints)) return schema;
  }
  const own = Object.fromEntries(Object.entries(outer).filter(([key]) => !MEMBER_ANNOTATIONS.has(key)));
  if (!mergeInto(out, own)) return schema;
  for (const key of MEMBER_ANNOTATIONS) if (key in outer) out[key] = outer[key] as Json;
  return out;
}

/**
 * The schema with annotation-only members dropped from its `oneOf`/`anyOf` alternatives where the schema itself
 * declares them: `{required: [a], properties: {a: {description}}}` beside a declared `a` accepts what
 * `{required: [a]}` does, so writing an alternative either way is no change.
 */
export function dropRestatedAlternativeMembers(schema: Json | undefined): Json | undefined {
  if (!isObject(schema) || !isObject(schema.properties)) return schema;
  const declared = schema.properties;
  let changed = false;
  const strip = (alternative: Json): Json => {
    if (!isObject(alternative) || !isObject(alternative.properties)) return alternative;
    const kept = Object.entries(alternative.properties).filter(
      ([name, value]) =>
        !(name in declared && isObject(value) && Object.keys(value).every((key) => ANNOTATION_ONLY.has(key))),
    );
    if (kept.length === Object.keys(alternative.properties).length) return alternative;
    changed = true;
    const { properties: _dropped, ...rest } = alternative;
    return kept.length > 0 ? { ...rest, properties: Object.fromEntries(kept) } : rest;
  };
  const out: JsonObject = { ...schema };
  for (const keyword of ["oneOf", "anyOf"] as const) {
    const alternatives = schema[keyword];
    if (Array.isArray(alternatives)) out[keyword] = alternatives.map(strip);
  }
  return changed ? out : schema;
}

/** A resolved schema as the comparers read it: `allOf` merged where exact, restated alternative members dropped. */
export function normalizeSchema(doc: JsonObject, schema: Json | undefined): Json | undefined {
  return dropRestatedAlternativeMembers(mergeAllOf(doc, schema));
}
