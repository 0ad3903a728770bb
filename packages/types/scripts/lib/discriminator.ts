// What tells the members of a union apart: a property pinned to different values in each member (a
// discriminator), or JSON types that no two members share.
import {
  impliedTypes,
  isSchemaObject,
  type Json,
  type JsonSchema,
  type JsonType,
  jsonType,
  type SchemaObject,
  typeList,
} from "@exchange-kit/spec-tools/json-schema";
import { expandRef, foldAllOf, mergeSchemas } from "./merge.ts";
import type { OpenApiSpec } from "@exchange-kit/spec-tools/spec";

const MAX_DEPTH = 40;
const UNIONS = ["oneOf", "anyOf"] as const;

/** A schema with its `$ref` followed and its allOf folded in, when it is an object. */
function flatten(doc: OpenApiSpec, schema: JsonSchema | undefined): SchemaObject | undefined {
  const expanded = expandRef(doc, schema);
  if (expanded === undefined) return undefined;
  const flat = foldAllOf(doc, expanded).schema;
  return isSchemaObject(flat) ? flat : undefined;
}

/**
 * The values property `name` can take in instances of `schema`, when the schema pins it: the property is
 * required and has a `const` or `enum` (through `$ref`, allOf and every member of oneOf/anyOf).
 * Undefined when not pinned.
 */
function literalValues(doc: OpenApiSpec, schema: JsonSchema | undefined, name: string, depth = 0): Json[] | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const flat = flatten(doc, schema);
  if (flat === undefined) return undefined;
  for (const keyword of UNIONS) {
    const { [keyword]: members, ...base } = flat;
    if (!Array.isArray(members)) continue;
    const sets = members.map((m) => literalValues(doc, mergeSchemas(doc, base, m) ?? m, name, depth + 1));
    if (sets.every(Boolean)) return [...new Set(sets.flat() as Json[])];
  }
  if (!(flat.required ?? []).includes(name)) return undefined;
  const property = flat.properties?.[name];
  if (property === undefined) return undefined;
  const resolved = flatten(doc, property);
  if (resolved === undefined) return undefined;
  if ("const" in resolved) return [resolved.const as Json];
  if (Array.isArray(resolved.enum)) return [...resolved.enum];
  return undefined;
}

/** The property that tells union members apart, and the values it takes in each member (in member order). */
export interface FoundDiscriminator {
  name: string;
  sets: Json[][];
}

/** The properties declared by a member or by the members of its oneOf/anyOf: the candidates to look at. */
function candidateNames(doc: OpenApiSpec, members: readonly JsonSchema[]): Set<string> {
  const names = new Set<string>();
  for (const member of members) {
    const flat = flatten(doc, member);
    for (const name of Object.keys(flat?.properties ?? {})) names.add(name);
    for (const keyword of UNIONS) {
      for (const sub of flat?.[keyword] ?? []) {
        for (const name of Object.keys(flatten(doc, sub)?.properties ?? {})) names.add(name);
      }
    }
  }
  return names;
}

const isScalar = (v: Json) => typeof v === "string" || typeof v === "number" || typeof v === "boolean" || v === null;

/** The property that tells the members apart: pinned in every member, no value shared. */
export function findDiscriminator(
  doc: OpenApiSpec,
  members: readonly JsonSchema[],
  preferred?: string,
): FoundDiscriminator | undefined {
  const candidates = preferred ? [preferred] : candidateNames(doc, members);
  for (const name of candidates) {
    const pinned = members.map((m) => literalValues(doc, m, name));
    if (!pinned.every((s) => s !== undefined && s.length > 0)) continue;
    const sets = pinned as Json[][];
    const all = sets.flat().map((v) => JSON.stringify(v));
    if (new Set(all).size !== all.length) continue;
    if (!sets.flat().every(isScalar)) continue;
    return { name, sets };
  }
  return undefined;
}

/** The JSON types a schema admits, when they can be read off its keywords (for oneOf exclusivity). */
export function admittedTypes(doc: OpenApiSpec, schema: JsonSchema): JsonType[] | undefined {
  const flat = flatten(doc, schema);
  if (flat === undefined) return undefined;
  if ("const" in flat) return [jsonType(flat.const as Json)];
  if (Array.isArray(flat.enum)) return [...new Set(flat.enum.map(jsonType))];
  const types = typeList(flat.type) ?? impliedTypes(flat);
  if (!types) return undefined;
  return flat.nullable ? [...types, "null"] : types;
}
