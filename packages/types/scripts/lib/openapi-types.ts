// openapi-typescript over a "typing view" of the bundled spec.
//
// The typing view changes nothing a validator would see differently; it only rewrites three JSON Schema
// idioms that openapi-typescript 7 turns into poor TypeScript:
//   1. A subschema of anyOf/oneOf with no `type` (a constraint such as `{required: [full_name]}` or
//      `{format: ipv4}`) inherits its parent's `type`, and the properties it requires get the parent's
//      property schema. (Alone, openapi-typescript types such members as `unknown`, which swallows the union.)
//   2. anyOf next to other keywords becomes `allOf: [{oneOf: ...}]`, i.e. `Base & (A | B)`: TypeScript cannot
//      tell anyOf from oneOf, and openapi-typescript renders anyOf beside a base as `Base | A | B`.
//   3. A property required by one allOf member is required in the member that declares it (JSON Schema:
//      required anywhere in an allOf is required), so `SuccessEnvelope & {data: Customer}` keeps `data`
//      non-optional.
// And one idiom it renders as a plain `string`: an open list, `anyOf: [{enum: [...]}, {type: string}]` (the values
// the document names, and any other string), becomes `"A" | "B" | (string & Record<never, never>)`, so editors
// complete the known values while a value the service adds later still compiles.
import openapiTS, {
  astToString,
  NEVER,
  type OpenAPI3,
  STRING,
  tsIntersection,
  tsLiteral,
  tsRecord,
  tsUnion,
} from "openapi-typescript";
import {
  isPlainObject,
  isSchemaObject,
  type JsonSchema,
  type SchemaObject,
} from "@exchange-kit/spec-tools/json-schema";
import { deref, type OpenApiSpec } from "@exchange-kit/spec-tools/spec";

const SKIP = new Set(["example", "examples", "default", "const", "enum"]);

function inheritType(parent: SchemaObject, member: JsonSchema): void {
  if (!isSchemaObject(member) || member.$ref !== undefined) return;
  if (member.type === undefined && parent.type !== undefined) member.type = structuredClone(parent.type);
  for (const key of member.required ?? []) {
    member.properties ??= {};
    const parentProperty = parent.properties?.[key];
    if (parentProperty === undefined) continue;
    const own = member.properties[key];
    const ownIsAnnotationOnly =
      own === undefined || Object.keys(own).every((k) => k === "description" || k === "title");
    if (ownIsAnnotationOnly) member.properties[key] = structuredClone(parentProperty);
  }
}

function rewriteSchema(doc: OpenApiSpec, schema: SchemaObject): void {
  for (const keyword of ["anyOf", "oneOf"] as const) {
    for (const member of schema[keyword] ?? []) inheritType(schema, member);
  }
  if (Array.isArray(schema.anyOf)) {
    const hasSiblings = ["type", "properties", "allOf", "oneOf", "$ref", "additionalProperties"].some(
      (k) => k in schema,
    );
    if (hasSiblings) {
      schema.allOf = [...(schema.allOf ?? []), { oneOf: schema.anyOf }];
      delete schema.anyOf;
    }
  }
  if (Array.isArray(schema.allOf)) {
    const required = new Set(schema.required ?? []);
    for (const member of schema.allOf) {
      const resolved = deref<JsonSchema>(doc, member);
      if (isSchemaObject(resolved)) for (const key of resolved.required ?? []) required.add(key);
    }
    const addRequired = (target: JsonSchema) => {
      if (!isSchemaObject(target) || target.$ref !== undefined || !isPlainObject(target.properties)) return;
      const extra = Object.keys(target.properties).filter(
        (k) => required.has(k) && !(target.required ?? []).includes(k),
      );
      if (extra.length > 0) target.required = [...(target.required ?? []), ...extra];
    };
    addRequired(schema);
    for (const member of schema.allOf) addRequired(member);
  }
}

function walk(doc: OpenApiSpec, node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(doc, item);
    return;
  }
  if (!isPlainObject(node)) return;
  if ("anyOf" in node || "oneOf" in node || "allOf" in node) rewriteSchema(doc, node as SchemaObject);
  for (const [key, value] of Object.entries(node)) {
    if (SKIP.has(key) || key.startsWith("x-")) continue;
    walk(doc, value);
  }
}

/** The typing view of a bundled spec (a rewritten deep copy). */
export function typingView(spec: OpenApiSpec): OpenApiSpec {
  const doc = structuredClone(spec);
  walk(doc, doc);
  return doc;
}

/**
 * The known values of an open list (`anyOf` of a string enum and a plain `{type: string}`), or undefined for any
 * other schema.
 *
 * @example
 * openListValues({ anyOf: [{ enum: ["UNVERIFIED", "VERIFIED"] }, { type: "string" }] }); // ["UNVERIFIED", "VERIFIED"]
 */
export function openListValues(schema: unknown): string[] | undefined {
  if (!isSchemaObject(schema) || !Array.isArray(schema.anyOf) || schema.anyOf.length !== 2) return undefined;
  const [known, other] = schema.anyOf;
  const values = isSchemaObject(known) ? known.enum : undefined;
  if (!Array.isArray(values) || !values.every((value) => typeof value === "string")) return undefined;
  const annotations = new Set(["type", "title", "description"]);
  const plainString = isSchemaObject(other) && Object.keys(other).every((key) => annotations.has(key));
  return plainString && (other as SchemaObject).type === "string" ? (values as string[]) : undefined;
}

/** The type of an open list: its known values as literals, or any other string (which keeps the literals). */
function openListType(values: readonly string[]) {
  return tsUnion([...values.map((value) => tsLiteral(value)), tsIntersection([STRING, tsRecord(NEVER, NEVER)])]);
}

/** The source of src/generated/openapi.ts. */
export async function generateOpenapiTypes(spec: OpenApiSpec): Promise<string> {
  // openapi-typescript's OpenAPI3 describes the same document in more detail than the generators need.
  const ast = await openapiTS(typingView(spec) as OpenAPI3, {
    emptyObjectsUnknown: true,
    silent: true,
    transform(schema) {
      const values = openListValues(schema);
      return values ? openListType(values) : undefined;
    },
  });
  return (
    "// Generated by openapi-typescript from the bundled openapi/openapi.yaml (typing view: scripts/lib/openapi-types.ts)\n" +
    "// by scripts/generate.ts: do not edit by hand; run `pnpm generate`.\n\n" +
    astToString(ast)
  );
}
