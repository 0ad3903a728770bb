// JSON Schema helpers of the zod generator: keyword classes, the allOf merge and literal-value analysis.
import { deref } from "./spec.mjs";

/** Keywords that never change what validates (OpenAPI's `discriminator` is read separately, by unions). */
export const ANNOTATIONS = new Set([
  "title",
  "description",
  "examples",
  "example",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
  "externalDocs",
  "xml",
  "contentEncoding",
  "contentMediaType",
  "$schema",
  "$id",
  "$anchor",
  "discriminator",
]);

const STRING_KEYWORDS = ["format", "pattern", "minLength", "maxLength"];
const NUMBER_KEYWORDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];
const ARRAY_KEYWORDS = ["items", "minItems", "maxItems", "uniqueItems"];
const OBJECT_KEYWORDS = [
  "properties",
  "required",
  "additionalProperties",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "dependentRequired",
];

/** Every keyword the generator understands; any other keyword (except `x-*`) is an error. */
export const SUPPORTED = new Set([
  ...ANNOTATIONS,
  ...STRING_KEYWORDS,
  ...NUMBER_KEYWORDS,
  ...ARRAY_KEYWORDS,
  ...OBJECT_KEYWORDS,
  "$ref",
  "type",
  "enum",
  "const",
  "nullable",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
]);

const KEYWORD_FAMILIES = {
  string: STRING_KEYWORDS,
  number: NUMBER_KEYWORDS,
  array: ARRAY_KEYWORDS,
  object: OBJECT_KEYWORDS,
};

export function isPlainObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The keywords of a schema that assert something (not annotations, not extensions). */
export function assertionKeys(schema) {
  if (!isPlainObject(schema)) return [];
  return Object.keys(schema).filter((k) => !ANNOTATIONS.has(k) && !k.startsWith("x-"));
}

/** True for `true`, `{}` and schemas made of annotations only: they accept everything. */
export function isTrivial(schema) {
  return schema === true || schema === undefined || (isPlainObject(schema) && assertionKeys(schema).length === 0);
}

/** The JSON type of a value, as JSON Schema names it. */
export function jsonType(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

export function typeList(type) {
  return type === undefined ? undefined : Array.isArray(type) ? [...type] : [type];
}

/** The types a schema's keywords imply when it has no `type`: the one keyword family it uses, if exactly one. */
export function impliedTypes(schema) {
  const families = Object.entries(KEYWORD_FAMILIES)
    .filter(([, keywords]) => keywords.some((k) => k in schema))
    .map(([family]) => family);
  return families.length === 1 ? families : undefined;
}

function valueMatchesTypes(value, types) {
  const t = jsonType(value);
  return types.includes(t) || (t === "integer" && types.includes("number"));
}

function intersectTypes(a, b) {
  const out = [];
  for (const t of a) {
    if (b.includes(t)) out.push(t);
    else if (t === "integer" && b.includes("number")) out.push("integer");
    else if (t === "number" && b.includes("integer")) out.push("integer");
  }
  return [...new Set(out)];
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A `$ref` with assertion siblings is the conjunction of both (OpenAPI 3.1); annotation siblings are dropped.
 * Returns the referenced schema itself when there are no assertion siblings.
 */
function expandRef(doc, schema) {
  if (!isPlainObject(schema) || typeof schema.$ref !== "string") return schema;
  const target = deref(doc, { $ref: schema.$ref });
  const siblings = Object.fromEntries(Object.entries(schema).filter(([k]) => k !== "$ref"));
  return isTrivial(siblings) ? target : mergeSchemas(doc, target, siblings);
}

/**
 * The conjunction of two schemas as one schema, or undefined when it cannot be written as one without changing
 * what validates (the caller then keeps an intersection). A property both sides declare becomes the merge of the
 * two, or `allOf` of both when they do not merge. A trivial side returns the other unchanged, keeping `$ref`s.
 */
export function mergeSchemas(doc, a, b, depth = 0) {
  if (depth > 40) return undefined;
  if (a === false || b === false) return undefined;
  if (isTrivial(a)) return b === true || b === undefined ? {} : b;
  if (isTrivial(b)) return a;
  if (
    a.$ref !== undefined &&
    a.$ref === b.$ref &&
    isTrivial({ ...a, $ref: undefined }) &&
    isTrivial({ ...b, $ref: undefined })
  )
    return a;
  a = expandRef(doc, a);
  b = expandRef(doc, b);
  if (a === undefined || b === undefined) return undefined;
  const out = {};
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const key of keys) {
    if (ANNOTATIONS.has(key) && key !== "discriminator") continue;
    if (key.startsWith("x-")) continue;
    const va = a[key];
    const vb = b[key];
    if (va === undefined || vb === undefined) {
      out[key] = va === undefined ? vb : va;
      continue;
    }
    switch (key) {
      case "type": {
        const t = intersectTypes(typeList(va), typeList(vb));
        if (t.length === 0) return undefined;
        out.type = t.length === 1 ? t[0] : t;
        break;
      }
      case "properties": {
        const props = {};
        for (const name of [...new Set([...Object.keys(va), ...Object.keys(vb)])]) {
          const pa = va[name];
          const pb = vb[name];
          props[name] =
            pa === undefined
              ? pb
              : pb === undefined
                ? pa
                : (mergeSchemas(doc, pa, pb, depth + 1) ?? { allOf: [pa, pb] });
        }
        out.properties = props;
        break;
      }
      case "required":
        out.required = [...new Set([...va, ...vb])];
        break;
      case "enum": {
        const [shorter, longer] = vb.length < va.length ? [vb, va] : [va, vb];
        const values = shorter.filter((x) => longer.some((y) => same(x, y)));
        if (values.length === 0) return undefined;
        out.enum = values;
        break;
      }
      case "items":
        out.items = mergeSchemas(doc, va, vb, depth + 1) ?? { allOf: [va, vb] };
        break;
      case "additionalProperties": {
        if (va === true) out.additionalProperties = vb;
        else if (vb === true) out.additionalProperties = va;
        else return undefined;
        break;
      }
      case "allOf":
        out.allOf = [...va, ...vb];
        break;
      case "minLength":
      case "minimum":
      case "exclusiveMinimum":
      case "minItems":
      case "minProperties":
        out[key] = Math.max(va, vb);
        break;
      case "maxLength":
      case "maximum":
      case "exclusiveMaximum":
      case "maxItems":
      case "maxProperties":
        out[key] = Math.min(va, vb);
        break;
      case "uniqueItems":
        out.uniqueItems = va || vb;
        break;
      case "nullable":
        out.nullable = va && vb;
        break;
      case "discriminator":
        out.discriminator = va;
        break;
      default:
        // const, format, pattern, multipleOf, propertyNames, anyOf, oneOf, not, if/then/else: equal or unmergeable.
        if (!same(va, vb)) return undefined;
        out[key] = va;
    }
  }
  // additionalProperties (other than true) governs the properties its own schema does not declare: merging the
  // other side's properties into it would change that, so such merges are refused.
  for (const [self, other] of [
    [a, b],
    [b, a],
  ]) {
    if (self.additionalProperties !== undefined && self.additionalProperties !== true) {
      const own = Object.keys(self.properties ?? {});
      if (Object.keys(other.properties ?? {}).some((k) => !own.includes(k))) return undefined;
    }
  }
  // Keep const/enum consistent with each other and with type.
  if ("const" in out && out.enum) {
    if (!out.enum.some((v) => same(v, out.const))) return undefined;
    delete out.enum;
  }
  const types = typeList(out.type);
  if (types) {
    if ("const" in out && !valueMatchesTypes(out.const, types)) return undefined;
    if (out.enum) {
      out.enum = out.enum.filter((v) => valueMatchesTypes(v, types));
      if (out.enum.length === 0) return undefined;
    }
  }
  return out;
}

/** allOf folded into one schema where possible: `{ schema, rest }`, rest being the members that did not merge. */
export function foldAllOf(doc, schema, depth = 0) {
  if (depth > 40) throw new Error("allOf nesting too deep (recursive allOf?)");
  if (!isPlainObject(schema) || !Array.isArray(schema.allOf)) return { schema, rest: [] };
  // Members first, then the schema's own keywords, so inherited properties come first in the output.
  const { allOf, ...own } = schema;
  let merged = {};
  const rest = [];
  for (const member of [...allOf, own]) {
    const next = mergeSchemas(doc, merged, member);
    if (next === undefined) rest.push(member);
    else merged = next;
  }
  const inner = foldAllOf(doc, merged, depth + 1);
  return { schema: inner.schema, rest: [...rest, ...inner.rest] };
}

/**
 * The values property `name` can take in instances of `schema`, when the schema pins it: the property is
 * required and has a `const` or `enum` (through `$ref`, allOf and every member of oneOf/anyOf).
 * Undefined when not pinned.
 */
function literalValues(doc, schema, name, depth = 0) {
  if (depth > 40) return undefined;
  schema = expandRef(doc, schema);
  if (!isPlainObject(schema)) return undefined;
  const { schema: flat } = foldAllOf(doc, schema);
  for (const keyword of ["oneOf", "anyOf"]) {
    if (!Array.isArray(flat[keyword])) continue;
    const { [keyword]: members, ...base } = flat;
    const sets = members.map((m) => literalValues(doc, mergeSchemas(doc, base, m) ?? m, name, depth + 1));
    if (sets.every(Boolean)) return [...new Set(sets.flat())];
  }
  if (!(flat.required ?? []).includes(name)) return undefined;
  const property = flat.properties?.[name];
  if (property === undefined) return undefined;
  const resolved = foldAllOf(doc, expandRef(doc, property)).schema;
  if (!isPlainObject(resolved)) return undefined;
  if ("const" in resolved) return [resolved.const];
  if (Array.isArray(resolved.enum)) return [...resolved.enum];
  return undefined;
}

/** The property that tells the members apart: pinned in every member, no value shared. */
export function findDiscriminator(doc, members, preferred) {
  const candidates = new Set(preferred ? [preferred] : []);
  if (!preferred) {
    for (const member of members) {
      const flat = foldAllOf(doc, expandRef(doc, member)).schema;
      for (const name of Object.keys(flat?.properties ?? {})) candidates.add(name);
      for (const keyword of ["oneOf", "anyOf"]) {
        for (const sub of flat?.[keyword] ?? []) {
          const subFlat = foldAllOf(doc, expandRef(doc, sub)).schema;
          for (const name of Object.keys(subFlat?.properties ?? {})) candidates.add(name);
        }
      }
    }
  }
  for (const name of candidates) {
    const sets = members.map((m) => literalValues(doc, m, name));
    if (!sets.every((s) => s && s.length > 0)) continue;
    const all = sets.flat().map((v) => JSON.stringify(v));
    if (new Set(all).size !== all.length) continue;
    if (
      !sets.flat().every((v) => typeof v === "string" || typeof v === "number" || typeof v === "boolean" || v === null)
    )
      continue;
    return { name, sets };
  }
  return undefined;
}

/** The JSON types a schema admits, when they can be read off its keywords (for oneOf exclusivity). */
export function admittedTypes(doc, schema) {
  schema = expandRef(doc, schema);
  if (!isPlainObject(schema)) return undefined;
  const flat = foldAllOf(doc, schema).schema;
  if ("const" in flat) return [jsonType(flat.const)];
  if (Array.isArray(flat.enum)) return [...new Set(flat.enum.map(jsonType))];
  const types = typeList(flat.type) ?? impliedTypes(flat);
  if (!types) return undefined;
  return flat.nullable ? [...types, "null"] : types;
}
