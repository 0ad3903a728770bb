// JSON Schema as the generators read it: the value and schema types, the keyword classes, and the small
// predicates every keyword family uses. (The allOf merge and the reading of discriminators are the types
// generator's own: packages/types/scripts/lib/merge.ts and discriminator.ts.)

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The JSON types, as JSON Schema names them (`integer` being a kind of `number`). */
export type JsonType = "null" | "boolean" | "object" | "array" | "number" | "integer" | "string";

/** OpenAPI's `discriminator`: the property that tells the members of a oneOf/anyOf apart. */
export interface Discriminator {
  propertyName: string;
  mapping?: Record<string, string>;
}

/** A JSON Schema object with the keywords the generators understand (see SUPPORTED). */
export interface SchemaObject {
  $ref?: string;
  type?: JsonType | JsonType[];
  enum?: Json[];
  const?: Json;
  /** OpenAPI 3.0's `nullable`, still read: `type: [..., "null"]`. */
  nullable?: boolean;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  /** An array is the draft-04 tuple form, which is refused. */
  items?: JsonSchema | JsonSchema[];
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema;
  propertyNames?: JsonSchema;
  minProperties?: number;
  maxProperties?: number;
  dependentRequired?: Record<string, string[]>;
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  not?: JsonSchema;
  if?: JsonSchema;
  then?: JsonSchema;
  else?: JsonSchema;
  discriminator?: Discriminator;
  title?: string;
  description?: string;
  /** Other annotations and `x-` extensions; the zod compiler refuses any other keyword. */
  [keyword: string]: unknown;
}

/** A JSON Schema: an object, or `true` (anything) / `false` (nothing). */
export type JsonSchema = boolean | SchemaObject;

/** Keywords that never change what validates (OpenAPI's `discriminator` is read separately, by unions). */
export const ANNOTATIONS: ReadonlySet<string> = new Set([
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

/** The keywords that apply to values of one type only, by type. */
const KEYWORD_FAMILIES: ReadonlyArray<readonly [JsonType, readonly string[]]> = [
  ["string", STRING_KEYWORDS],
  ["number", NUMBER_KEYWORDS],
  ["array", ARRAY_KEYWORDS],
  ["object", OBJECT_KEYWORDS],
];

/** Every keyword the generator understands; any other keyword (except `x-*`) is an error. */
export const SUPPORTED: ReadonlySet<string> = new Set([
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

/** The keywords whose subschemas are read with the parent's type (see impliedTypes). */
export const APPLICATORS: ReadonlySet<string> = new Set(["allOf", "anyOf", "oneOf", "not", "if", "then", "else"]);

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A schema object (not a boolean schema). */
export function isSchemaObject(schema: unknown): schema is SchemaObject {
  return isPlainObject(schema);
}

/** The keywords of a schema that assert something (not annotations, not extensions). */
export function assertionKeys(schema: unknown): string[] {
  if (!isPlainObject(schema)) return [];
  return Object.keys(schema).filter((k) => !ANNOTATIONS.has(k) && !k.startsWith("x-"));
}

/** True for `true`, `{}` and schemas made of annotations only: they accept everything. */
export function isTrivial(schema: unknown): boolean {
  return schema === true || schema === undefined || (isPlainObject(schema) && assertionKeys(schema).length === 0);
}

/** The JSON type of a value, as JSON Schema names it. */
export function jsonType(value: Json): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as "string" | "boolean" | "object";
}

/** `type` as a list (a copy), or undefined when the schema has none. */
export function typeList(type: JsonType | JsonType[] | undefined): JsonType[] | undefined {
  return type === undefined ? undefined : Array.isArray(type) ? [...type] : [type];
}

/** True when a value is of one of the types (an integer is a number). */
export function valueMatchesTypes(value: Json, types: readonly JsonType[]): boolean {
  const t = jsonType(value);
  return types.includes(t) || (t === "integer" && types.includes("number"));
}

/** The types a schema's keywords imply when it has no `type`: the one keyword family it uses, if exactly one. */
export function impliedTypes(schema: SchemaObject): JsonType[] | undefined {
  const families = KEYWORD_FAMILIES.filter(([, keywords]) => keywords.some((k) => k in schema)).map(
    ([family]) => family,
  );
  return families.length === 1 ? families : undefined;
}

/** Deep equality of two JSON values, as JSON text (key order matters, as it does for the spec's own copies). */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
