// The conjunction of two JSON Schemas as one schema (allOf folded into its parent), keyword by keyword. A merge
// that cannot be written as one schema without changing what validates is refused (undefined): the caller then
// keeps the members apart (a zod intersection), which is always correct, only less readable.
import {
  ANNOTATIONS,
  isPlainObject,
  isSchemaObject,
  isTrivial,
  type Json,
  type JsonSchema,
  type JsonType,
  type SchemaObject,
  sameJson,
  typeList,
  valueMatchesTypes,
} from "@exchange-kit/spec-tools/json-schema";
import { deref, type OpenApiSpec } from "@exchange-kit/spec-tools/spec";

/** Deeper than this, a merge is refused (and foldAllOf throws): only a recursive allOf gets there. */
const MAX_DEPTH = 40;

/** A keyword's two values have no single-value conjunction. */
const CONFLICT = Symbol("conflict");
type Conflict = typeof CONFLICT;

/** Merges two subschemas one level down (properties, items). */
type SubschemaMerge = (a: JsonSchema, b: JsonSchema) => JsonSchema | undefined;

/** The keywords SchemaObject declares (not its index signature). */
type Keyword = keyof { [K in keyof SchemaObject as string extends K ? never : K]: SchemaObject[K] };

/** How one keyword's two values merge: both are present. */
type KeywordMerge<K extends Keyword> = (
  a: NonNullable<SchemaObject[K]>,
  b: NonNullable<SchemaObject[K]>,
  subschemas: SubschemaMerge,
) => SchemaObject[K] | Conflict;

const larger = (a: number, b: number): number => Math.max(a, b);
const smaller = (a: number, b: number): number => Math.min(a, b);

/** `type`: the types both admit (an integer is a number). */
function mergeTypes(a: JsonType | JsonType[], b: JsonType | JsonType[]): JsonType | JsonType[] | Conflict {
  const types = intersectTypes(typeList(a) ?? [], typeList(b) ?? []);
  if (types.length === 0) return CONFLICT;
  return types.length === 1 ? (types[0] as JsonType) : types;
}

function intersectTypes(a: readonly JsonType[], b: readonly JsonType[]): JsonType[] {
  const out: JsonType[] = [];
  for (const t of a) {
    if (b.includes(t)) out.push(t);
    else if (t === "integer" && b.includes("number")) out.push("integer");
    else if (t === "number" && b.includes("integer")) out.push("integer");
  }
  return [...new Set(out)];
}

/** A subschema both sides declare: their merge, or `allOf` of both when they do not merge. */
function mergeSubschema(a: JsonSchema, b: JsonSchema, subschemas: SubschemaMerge): JsonSchema {
  return subschemas(a, b) ?? { allOf: [a, b] };
}

/** `properties`: every property of either side; one both declare gets both constraints. */
function mergeProperties(
  a: Record<string, JsonSchema>,
  b: Record<string, JsonSchema>,
  subschemas: SubschemaMerge,
): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const pa = a[name];
    const pb = b[name];
    out[name] = pa === undefined ? (pb as JsonSchema) : pb === undefined ? pa : mergeSubschema(pa, pb, subschemas);
  }
  return out;
}

/** `enum`: the values both list, in the shorter list's order. */
function intersectEnums(a: Json[], b: Json[]): Json[] | Conflict {
  const [shorter, longer] = b.length < a.length ? [b, a] : [a, b];
  const values = shorter.filter((x) => longer.some((y) => sameJson(x, y)));
  return values.length === 0 ? CONFLICT : values;
}

/** `additionalProperties`: `true` yields to the other side; two constraints do not merge (see closedObjectsAgree). */
function mergeAdditionalProperties(a: JsonSchema, b: JsonSchema): JsonSchema | Conflict {
  if (a === true) return b;
  if (b === true) return a;
  return CONFLICT;
}

/** `const`, `format`, `pattern`, `multipleOf`, `propertyNames`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else` and
 * any keyword without a rule of its own: the same value on both sides, or no merge. */
function equalOrConflict<T>(a: T, b: T): T | Conflict {
  return sameJson(a, b) ? a : CONFLICT;
}

const KEYWORD_MERGES: { [K in Keyword]?: KeywordMerge<K> } = {
  type: mergeTypes,
  properties: mergeProperties,
  required: (a, b) => [...new Set([...a, ...b])],
  enum: intersectEnums,
  // A tuple (`items` as an array) does not merge; the members stay apart and each is refused as a tuple.
  items: (a, b, subschemas) => (Array.isArray(a) || Array.isArray(b) ? CONFLICT : mergeSubschema(a, b, subschemas)),
  additionalProperties: mergeAdditionalProperties,
  allOf: (a, b) => [...a, ...b],
  minLength: larger,
  minimum: larger,
  exclusiveMinimum: larger,
  minItems: larger,
  minProperties: larger,
  maxLength: smaller,
  maximum: smaller,
  exclusiveMaximum: smaller,
  maxItems: smaller,
  maxProperties: smaller,
  uniqueItems: (a, b) => a || b,
  nullable: (a, b) => a && b,
  // An annotation for validation, but what tells union members apart: the first side's is kept.
  discriminator: (a) => a,
};

/** The merge of one keyword present on both sides. */
function mergeKeyword(key: string, a: unknown, b: unknown, subschemas: SubschemaMerge): unknown {
  if (!Object.hasOwn(KEYWORD_MERGES, key)) return equalOrConflict(a, b);
  // The values are read from the document under their keyword, so they have the keyword's type.
  const merge = KEYWORD_MERGES[key as Keyword] as (a: unknown, b: unknown, subschemas: SubschemaMerge) => unknown;
  return merge(a, b, subschemas);
}

/** Annotations (but the discriminator) and extensions do not survive a merge. */
function droppedInMerge(key: string): boolean {
  return (ANNOTATIONS.has(key) && key !== "discriminator") || key.startsWith("x-");
}

/** Every keyword of either side, merged where both have it, in the order a's keywords then b's. */
function mergeKeywords(a: SchemaObject, b: SchemaObject, subschemas: SubschemaMerge): SchemaObject | undefined {
  const out: SchemaObject = {};
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (droppedInMerge(key)) continue;
    const va = a[key];
    const vb = b[key];
    const merged = va === undefined ? vb : vb === undefined ? va : mergeKeyword(key, va, vb, subschemas);
    if (merged === CONFLICT) return undefined;
    out[key] = merged;
  }
  return out;
}

/**
 * additionalProperties (other than true) governs the properties its own schema does not declare: merging the
 * other side's properties into it would change that, so such merges are refused.
 */
function closedObjectsAgree(a: SchemaObject, b: SchemaObject): boolean {
  const admits = (self: SchemaObject, other: SchemaObject) => {
    if (self.additionalProperties === undefined || self.additionalProperties === true) return true;
    const own = Object.keys(self.properties ?? {});
    return Object.keys(other.properties ?? {}).every((k) => own.includes(k));
  };
  return admits(a, b) && admits(b, a);
}

/** Keeps const/enum consistent with each other and with type; undefined when no value is left. */
function reconcileValues(schema: SchemaObject): SchemaObject | undefined {
  if ("const" in schema && schema.enum) {
    if (!schema.enum.some((v) => sameJson(v, schema.const))) return undefined;
    delete schema.enum;
  }
  const types = typeList(schema.type);
  if (types) {
    if ("const" in schema && !valueMatchesTypes(schema.const as Json, types)) return undefined;
    if (schema.enum) {
      schema.enum = schema.enum.filter((v) => valueMatchesTypes(v, types));
      if (schema.enum.length === 0) return undefined;
    }
  }
  return schema;
}

/** The schema less its `$ref`. */
function withoutRef(schema: SchemaObject): SchemaObject {
  const { $ref, ...rest } = schema;
  return rest;
}

/** Two plain references to the same component, annotations aside. */
function sameReference(a: SchemaObject, b: SchemaObject): boolean {
  return a.$ref !== undefined && a.$ref === b.$ref && isTrivial(withoutRef(a)) && isTrivial(withoutRef(b));
}

/**
 * A `$ref` with assertion siblings is the conjunction of both (OpenAPI 3.1); annotation siblings are dropped.
 * Returns the referenced schema itself when there are no assertion siblings.
 */
export function expandRef(doc: OpenApiSpec, schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!isSchemaObject(schema) || typeof schema.$ref !== "string") return schema;
  const target = deref<JsonSchema>(doc, { $ref: schema.$ref });
  const siblings = Object.fromEntries(Object.entries(schema).filter(([k]) => k !== "$ref"));
  return isTrivial(siblings) ? target : mergeSchemas(doc, target, siblings);
}

/**
 * The conjunction of two schemas as one schema, or undefined when it cannot be written as one without changing
 * what validates (the caller then keeps an intersection). A property both sides declare becomes the merge of the
 * two, or `allOf` of both when they do not merge. A trivial side returns the other unchanged, keeping `$ref`s.
 */
export function mergeSchemas(
  doc: OpenApiSpec,
  a: JsonSchema | undefined,
  b: JsonSchema | undefined,
  depth = 0,
): JsonSchema | undefined {
  if (depth > MAX_DEPTH) return undefined;
  if (a === false || b === false) return undefined;
  if (isTrivial(a)) return b === true || b === undefined ? {} : b;
  if (isTrivial(b)) return a;
  if (!isSchemaObject(a) || !isSchemaObject(b)) return undefined;
  if (sameReference(a, b)) return a;
  const left = expandRef(doc, a);
  const right = expandRef(doc, b);
  // A reference to a boolean schema: kept as a member of its own.
  if (!isSchemaObject(left) || !isSchemaObject(right)) return undefined;
  const merged = mergeKeywords(left, right, (x, y) => mergeSchemas(doc, x, y, depth + 1));
  if (merged === undefined || !closedObjectsAgree(left, right)) return undefined;
  return reconcileValues(merged);
}

/** An allOf folded into one schema where possible, and the members that did not merge. */
export interface FoldedAllOf {
  schema: JsonSchema;
  rest: JsonSchema[];
}

/** allOf folded into one schema where possible: `{ schema, rest }`, rest being the members that did not merge. */
export function foldAllOf(doc: OpenApiSpec, schema: JsonSchema, depth = 0): FoldedAllOf {
  if (depth > MAX_DEPTH) throw new Error("allOf nesting too deep (recursive allOf?)");
  if (!isPlainObject(schema) || !Array.isArray(schema.allOf)) return { schema, rest: [] };
  // Members first, then the schema's own keywords, so inherited properties come first in the output.
  const { allOf, ...own } = schema;
  let merged: JsonSchema = {};
  const rest: JsonSchema[] = [];
  for (const member of [...allOf, own]) {
    const next = mergeSchemas(doc, merged, member);
    if (next === undefined) rest.push(member);
    else merged = next;
  }
  const inner = foldAllOf(doc, merged, depth + 1);
  return { schema: inner.schema, rest: [...rest, ...inner.rest] };
}
