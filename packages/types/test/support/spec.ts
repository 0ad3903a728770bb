// Test support: the bundled spec, the examples it gives for each component, and mutations of examples that the
// spec's schemas reject. The analysis here is independent of the zod generator (scripts/generate-zod.ts) so the
// tests check the generated schemas against the spec rather than against the generator's own reading of it.
import * as generatorSpec from "@exchange-kit/spec-tools/spec";
import { schemaRefName } from "@exchange-kit/spec-tools/spec";
import { bundleSpec } from "../../scripts/lib/load.ts";

export { schemaRefName };

/** A JSON object of any shape: the tests read the spec loosely and let a wrong guess fail the test. */
export type JsonObject = { [key: string]: any };

/** The generators' deref, over a loosely read spec. */
export const deref = (doc: JsonObject, node: unknown): any => generatorSpec.deref(doc, node);

/** The generators' listOperations, over a loosely read spec. */
export const listOperations = (
  doc: JsonObject,
  section?: "paths" | "webhooks",
): { key: string; method: string; operation: JsonObject; pathItem: JsonObject }[] =>
  generatorSpec.listOperations(doc, section);

let cached: JsonObject | undefined;

/** The bundled spec (bundled once per test file). */
export function spec(): JsonObject {
  cached ??= bundleSpec() as JsonObject;
  return cached;
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** The example values of a schema object: `examples` (an array) and `example`. */
export function schemaExamples(schema: JsonObject): unknown[] {
  const out: unknown[] = [];
  if (Array.isArray(schema.examples)) out.push(...schema.examples);
  if ("example" in schema) out.push(schema.example);
  return out;
}

/** The example values of a media type object: `examples` (a map of Example objects) and `example`. */
export function mediaExamples(doc: JsonObject, media: JsonObject | undefined): { name: string; value: unknown }[] {
  if (!media) return [];
  const out: { name: string; value: unknown }[] = [];
  for (const [name, example] of Object.entries(media.examples ?? {})) {
    const resolved = deref(doc, example);
    if (resolved && "value" in resolved) out.push({ name, value: resolved.value });
  }
  if ("example" in media) out.push({ name: "example", value: media.example });
  return out;
}

/** A JSON Schema `$ref` to a component, with annotation siblings only. */
function plainRef(schema: unknown): string | undefined {
  if (!isObject(schema) || typeof schema.$ref !== "string") return undefined;
  const others = Object.keys(schema).filter((k) => k !== "$ref" && k !== "description" && k !== "title");
  return others.length === 0 ? schemaRefName(schema.$ref) : undefined;
}

/**
 * The component an envelope's `data` is, when the schema is `allOf: [SuccessEnvelope, {properties: {data: $ref}}]`
 * (or any allOf member declaring `data` as a plain reference).
 */
export function envelopeDataComponent(doc: JsonObject, schema: unknown): string | undefined {
  const resolved = deref(doc, schema);
  if (!isObject(resolved)) return undefined;
  const members = [resolved, ...(Array.isArray(resolved.allOf) ? resolved.allOf : [])];
  for (const member of members) {
    const data = isObject(member) && isObject(member.properties) ? member.properties.data : undefined;
    const name = plainRef(data);
    if (name) return name;
  }
  return undefined;
}

export interface ExampleSource {
  /** Where the example comes from, for test names. */
  where: string;
  value: unknown;
}

/**
 * Every example the spec gives for each component schema: its own `examples`/`example`, the examples of request
 * bodies (of operations and webhooks) whose schema is the component, and the `data` of the examples of responses
 * whose schema is an envelope around the component.
 */
export function examplesByComponent(doc: JsonObject): Map<string, ExampleSource[]> {
  const out = new Map<string, ExampleSource[]>();
  const add = (name: string, source: ExampleSource) => {
    if (!out.has(name)) out.set(name, []);
    out.get(name)!.push(source);
  };
  for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, JsonObject>)) {
    out.set(name, []);
    for (const [i, value] of schemaExamples(schema).entries()) {
      add(name, { where: `components.schemas.${name}.examples[${i}]`, value });
    }
  }
  for (const section of ["paths", "webhooks"] as const) {
    for (const { key, method, operation } of listOperations(doc, section)) {
      const label = `${section === "paths" ? operation.operationId : `webhook ${key}`}`;
      const body = deref(doc, operation.requestBody);
      const bodyMedia = body?.content?.["application/json"];
      const bodyComponent = plainRef(bodyMedia?.schema);
      if (bodyComponent) {
        for (const ex of mediaExamples(doc, bodyMedia))
          add(bodyComponent, { where: `${label} request ${ex.name}`, value: ex.value });
      }
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, unknown>)) {
        const media = deref(doc, response)?.content?.["application/json"];
        if (!media) continue;
        const direct = plainRef(media.schema);
        const dataComponent = envelopeDataComponent(doc, media.schema);
        for (const ex of mediaExamples(doc, media)) {
          if (direct) add(direct, { where: `${label} ${method} ${status} ${ex.name}`, value: ex.value });
          if (dataComponent && isObject(ex.value) && "data" in ex.value) {
            add(dataComponent, { where: `${label} ${status} ${ex.name} .data`, value: ex.value.data });
          }
        }
      }
    }
  }
  return out;
}

// ---- what a schema guarantees, read independently of the generator ----------------------------------------

type JsonType = "null" | "boolean" | "object" | "array" | "number" | "integer" | "string";

/** What every instance of a schema must satisfy (only facts that hold in every branch of oneOf/anyOf). */
export interface Facts {
  /** The JSON types admitted, or undefined for any. */
  types?: JsonType[];
  /** The values admitted (enum/const), or undefined for any. */
  values?: unknown[];
  /** Keys every instance has. */
  required: Set<string>;
  /** Facts of each declared property (from the conjuncts that declare it). */
  properties: Map<string, Facts>;
  /** True when the schema is (a reference to) the DecimalString component. */
  decimal: boolean;
}

const ANY = (): Facts => ({ required: new Set(), properties: new Map(), decimal: false });

function intersect<T>(a: T[] | undefined, b: T[] | undefined, eq: (x: T, y: T) => boolean): T[] | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a.filter((x) => b.some((y) => eq(x, y)));
}

const typeEq = (x: JsonType, y: JsonType) =>
  x === y || (x === "integer" && y === "number") || (x === "number" && y === "integer");
const valueEq = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);

function both(a: Facts, b: Facts): Facts {
  const properties = new Map(a.properties);
  for (const [k, f] of b.properties) properties.set(k, properties.has(k) ? both(properties.get(k)!, f) : f);
  return {
    types: intersect(a.types, b.types, typeEq),
    values: intersect(a.values, b.values, valueEq),
    required: new Set([...a.required, ...b.required]),
    properties,
    decimal: a.decimal || b.decimal,
  };
}

function either(list: Facts[]): Facts {
  const [first, ...rest] = list;
  if (!first) return ANY();
  const union = <T>(get: (f: Facts) => T[] | undefined) => {
    const all = list.map(get);
    return all.every(Boolean) ? [...new Set(all.flat() as T[])] : undefined;
  };
  const properties = new Map<string, Facts>();
  for (const [k] of first.properties) {
    if (rest.every((f) => f.properties.has(k))) properties.set(k, either(list.map((f) => f.properties.get(k)!)));
  }
  return {
    types: union((f) => f.types),
    values: union((f) => f.values),
    required: new Set([...first.required].filter((k) => rest.every((f) => f.required.has(k)))),
    properties,
    decimal: list.every((f) => f.decimal),
  };
}

/** The facts of a schema. */
export function facts(doc: JsonObject, schema: unknown, depth = 0): Facts {
  if (depth > 30 || !isObject(schema)) return ANY();
  if (typeof schema.$ref === "string") {
    const target = facts(doc, deref(doc, { $ref: schema.$ref }), depth + 1);
    const own = facts(doc, Object.fromEntries(Object.entries(schema).filter(([k]) => k !== "$ref")), depth + 1);
    const merged = both(target, own);
    return schemaRefName(schema.$ref) === "DecimalString" ? { ...merged, decimal: true } : merged;
  }
  let f: Facts = ANY();
  if (schema.type !== undefined) f.types = (Array.isArray(schema.type) ? schema.type : [schema.type]) as JsonType[];
  if (schema.nullable === true && f.types) f.types = [...f.types, "null"];
  if ("const" in schema) f.values = [schema.const];
  if (Array.isArray(schema.enum)) f.values = intersect(f.values, schema.enum, valueEq);
  if (Array.isArray(schema.required)) f.required = new Set(schema.required as string[]);
  if (isObject(schema.properties)) {
    for (const [k, sub] of Object.entries(schema.properties)) f.properties.set(k, facts(doc, sub, depth + 1));
  }
  for (const member of (schema.allOf as unknown[] | undefined) ?? []) f = both(f, facts(doc, member, depth + 1));
  for (const keyword of ["oneOf", "anyOf"]) {
    const members = schema[keyword];
    if (Array.isArray(members)) f = both(f, either(members.map((m) => facts(doc, m, depth + 1))));
  }
  return f;
}

// ---- mutations -----------------------------------------------------------------------------------------------

export interface Mutation {
  description: string;
  value: unknown;
}

/** A value whose JSON type is none of `types`. */
function wrongTypeValue(types: JsonType[]): unknown {
  const has = (t: JsonType) => types.some((x) => typeEq(x, t) || x === t);
  if (!has("number")) return 12345;
  if (!has("string")) return "not-a-number";
  if (!has("boolean")) return true;
  return undefined;
}

/**
 * Mutations of an example that the schema (as read by `facts`) rejects: a required property dropped, a
 * property given a value of the wrong JSON type, an enum/const property given an unknown value, a decimal
 * amount given as a JS number, and the whole value replaced by a number when numbers are not admitted.
 * Properties are mutated one level down too (`data` of an envelope, `metadata` of an event).
 */
export function mutations(f: Facts, example: unknown, path: string[] = []): Mutation[] {
  const out: Mutation[] = [];
  const at = path.length > 0 ? path.join(".") : "the value";
  if (f.types) {
    const wrong = wrongTypeValue(f.types);
    if (wrong !== undefined) out.push({ description: `${at} replaced by ${JSON.stringify(wrong)}`, value: wrong });
  }
  if (f.values && !f.values.includes("__NOT_A_LISTED_VALUE__")) {
    out.push({ description: `${at} replaced by an unknown enum/const value`, value: "__NOT_A_LISTED_VALUE__" });
  }
  if (f.decimal && typeof example === "string") {
    out.push({ description: `${at} (a decimal string) given as a JS number`, value: Number(example) });
  }
  if (!isObject(example)) return out;
  for (const key of f.required) {
    if (key in example) {
      const { [key]: _dropped, ...rest } = example;
      out.push({ description: `required ${[...path, key].join(".")} dropped`, value: rest });
    }
  }
  if (path.length < 2) {
    for (const [key, sub] of f.properties) {
      if (!(key in example)) continue;
      for (const m of mutations(sub, example[key], [...path, key])) {
        out.push({ description: m.description, value: { ...example, [key]: m.value } });
      }
    }
  }
  return out;
}

/** Mutations applied to no example at all: values of a wrong type or outside the enum for the whole schema. */
export function standaloneMutations(f: Facts): Mutation[] {
  return mutations(f, undefined);
}
