// The spec's vocabulary as values, for src/generated/catalog.ts: the webhook event types, the events of each type,
// the rules of each event's metadata (which keys, which values: the failure and refund reasons among them) and the
// enumerated statuses of each record. The packages import these lists from @exchange-kit/types instead of typing
// them again, so an event added to the spec reaches them by `pnpm generate` alone.
//
// It reads the spec loosely (CatalogSpec) and checks every node it uses itself; references are followed by the
// generators' resolver (lib/spec.ts). Run by Node's type stripping: erasable syntax only.
import { deref } from "@exchange-kit/spec-tools/spec";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The parts of an OpenAPI 3.1 document the catalog reads. */
export interface CatalogSpec {
  webhooks?: { [name: string]: unknown };
  components?: { schemas?: { [name: string]: unknown } };
}

/** What one metadata key of an event may hold; see WebhookMetadataRule in the generated file. */
export interface MetadataRule {
  optional?: true;
  nullable?: true;
  values?: string[];
  requiredWhen?: { key: string; value: string };
}

/** Everything src/generated/catalog.ts lists, as plain data (the tests read it). */
export interface Catalog {
  /** Each event type, in the order of the spec's `webhooks`. */
  eventTypes: string[];
  /** The events of each type, in the order of its body's `oneOf`. */
  events: { [type: string]: string[] };
  /** The metadata rules of each (type, event), by metadata key. */
  metadata: { [type: string]: { [event: string]: { [key: string]: MetadataRule } } };
  /** The values of each component schema's enumerated status property (`status` or `*_status`), by schema. */
  statuses: { [schema: string]: string[] };
}

/** The type names the generated file declares: a component schema of the same name would clash with them. */
export const CATALOG_TYPE_NAMES = [
  "WebhookEventName",
  "WebhookMetadataRule",
  "WebhookMetadataValue",
  "RecordWithStatus",
  "RecordStatus",
] as const;

const isObject = (node: unknown): node is JsonObject =>
  typeof node === "object" && node !== null && !Array.isArray(node);

const isStringArray = (node: unknown): node is string[] =>
  Array.isArray(node) && node.every((value) => typeof value === "string");

function objectAt(spec: CatalogSpec, node: unknown, where: string): JsonObject {
  const resolved = deref(spec, node);
  if (!isObject(resolved)) throw new Error(`catalog: ${where} is not a schema object`);
  return resolved;
}

/** The string a schema pins with `const` (or a one-value `enum`), or undefined. */
function pinned(schema: JsonObject): string | undefined {
  if (typeof schema.const === "string") return schema.const;
  if (isStringArray(schema.enum) && schema.enum.length === 1) return schema.enum[0];
  return undefined;
}

/**
 * The rule of one metadata property. The catalog describes string values only (the spec's metadata holds
 * nothing else): any other type stops the generator rather than letting the packages check it wrongly.
 */
function ruleOf(schema: JsonObject, required: boolean, where: string): MetadataRule {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? "string"];
  const nullable = types.includes("null");
  if (!types.every((t) => t === "string" || t === "null") || !types.includes("string")) {
    throw new Error(
      `catalog: ${where} must be a string (or a string or null), got type ${JSON.stringify(schema.type)}`,
    );
  }
  const rule: MetadataRule = {};
  if (!required) rule.optional = true;
  if (nullable) rule.nullable = true;
  if (isStringArray(schema.enum)) rule.values = [...schema.enum];
  else if (typeof schema.const === "string") rule.values = [schema.const];
  return rule;
}

/** The metadata rules of one event schema, with the keys its `if`/`then` requires under a condition. */
function metadataRules(spec: CatalogSpec, metadata: JsonObject, where: string): { [key: string]: MetadataRule } {
  const properties = isObject(metadata.properties) ? metadata.properties : {};
  const required = isStringArray(metadata.required) ? metadata.required : [];
  for (const key of required) {
    if (!(key in properties)) throw new Error(`catalog: ${where} requires ${key} but does not describe it`);
  }
  const rules: { [key: string]: MetadataRule } = {};
  for (const [key, property] of Object.entries(properties)) {
    rules[key] = ruleOf(objectAt(spec, property, `${where}.${key}`), required.includes(key), `${where}.${key}`);
  }
  if (metadata.if !== undefined || metadata.then !== undefined) addConditionalRules(spec, metadata, rules, where);
  return rules;
}

/** The one conditional form the catalog carries: `if` pins one key to a value, `then` requires further keys. */
function addConditionalRules(
  spec: CatalogSpec,
  metadata: JsonObject,
  rules: { [key: string]: MetadataRule },
  where: string,
): void {
  const condition = objectAt(spec, metadata.if, `${where} if`);
  const consequence = objectAt(spec, metadata.then, `${where} then`);
  const pins = Object.entries(isObject(condition.properties) ? condition.properties : {});
  const value = pins.length === 1 && isObject(pins[0]![1]) ? pinned(pins[0]![1]) : undefined;
  const keys = isStringArray(consequence.required) ? consequence.required : [];
  if (value === undefined || keys.length === 0 || metadata.else !== undefined) {
    throw new Error(`catalog: ${where}: only "if one key has a value, then these keys are required" is supported`);
  }
  for (const key of keys) {
    if (!rules[key]) throw new Error(`catalog: ${where} requires ${key} conditionally but does not describe it`);
    rules[key] = { ...rules[key], requiredWhen: { key: pins[0]![0], value } };
  }
}

/** The variants of a webhook's body: the members of its `oneOf` (or `anyOf`), or the body itself. */
function webhookVariants(spec: CatalogSpec, name: string, item: unknown): Json[] {
  const operation = objectAt(spec, objectAt(spec, item, `webhook ${name}`).post, `webhook ${name} post`);
  const content = objectAt(spec, operation.requestBody, `webhook ${name} requestBody`).content;
  const media = isObject(content) ? content["application/json"] : undefined;
  const union = objectAt(spec, isObject(media) ? media.schema : undefined, `webhook ${name} body`);
  return Array.isArray(union.oneOf) ? union.oneOf : Array.isArray(union.anyOf) ? union.anyOf : [union];
}

/** Adds one variant of webhook `name`'s body to the catalog: its type, its event and the event's metadata rules. */
function addVariant(spec: CatalogSpec, catalog: Catalog, name: string, raw: Json, index: number): void {
  const variant = objectAt(spec, raw, `webhook ${name} variant ${index}`);
  const properties = isObject(variant.properties) ? variant.properties : {};
  const type = pinned(objectAt(spec, properties.type ?? {}, `webhook ${name} type`));
  const event = pinned(objectAt(spec, properties.event ?? {}, `webhook ${name} event`));
  if (type === undefined || event === undefined) {
    throw new Error(`catalog: webhook ${name}: variant ${index} must pin type and event with const`);
  }
  if (!catalog.eventTypes.includes(type)) catalog.eventTypes.push(type);
  const events = (catalog.events[type] ??= []);
  if (events.includes(event)) throw new Error(`catalog: ${type} ${event} is described twice`);
  events.push(event);
  const metadata = objectAt(spec, properties.metadata ?? {}, `${type} ${event} metadata`);
  (catalog.metadata[type] ??= {})[event] = metadataRules(spec, metadata, `${type} ${event} metadata`);
}

/** The values of each component schema's enumerated status property (`status` or `*_status`), by schema. */
function readStatuses(spec: CatalogSpec): { [schema: string]: string[] } {
  const statuses: { [schema: string]: string[] } = {};
  for (const [name, raw] of Object.entries(spec.components?.schemas ?? {})) {
    const schema = deref(spec, raw);
    if (!isObject(schema) || !isObject(schema.properties)) continue;
    for (const [key, property] of Object.entries(schema.properties)) {
      if (key !== "status" && !key.endsWith("_status")) continue;
      const values = objectAt(spec, property, `${name}.${key}`).enum;
      if (isStringArray(values)) statuses[name] = [...values];
    }
  }
  return statuses;
}

/** Reads the catalog from a bundled spec (every shared piece referenced as `#/components/...`). */
export function readCatalog(spec: CatalogSpec): Catalog {
  const catalog: Catalog = { eventTypes: [], events: {}, metadata: {}, statuses: {} };
  for (const [name, item] of Object.entries(spec.webhooks ?? {})) {
    for (const [index, raw] of webhookVariants(spec, name, item).entries()) addVariant(spec, catalog, name, raw, index);
  }
  catalog.statuses = readStatuses(spec);
  return catalog;
}

const literal = (value: unknown): string => JSON.stringify(value);
const IDENT = /^[A-Za-z_$][\w$]*$/;
const key = (name: string): string => (IDENT.test(name) ? name : literal(name));
const list = (values: readonly string[]): string => `[${values.map(literal).join(", ")}]`;

function ruleSource(rule: MetadataRule): string {
  const parts: string[] = [];
  if (rule.optional) parts.push("optional: true");
  if (rule.nullable) parts.push("nullable: true");
  if (rule.values) parts.push(`values: ${list(rule.values)}`);
  if (rule.requiredWhen) {
    parts.push(`requiredWhen: { key: ${literal(rule.requiredWhen.key)}, value: ${literal(rule.requiredWhen.value)} }`);
  }
  return parts.length > 0 ? `{ ${parts.join(", ")} }` : "{}";
}

function nested<T>(entries: [string, T][], indent: string, inner: (value: T, indent: string) => string): string {
  if (entries.length === 0) return "{}";
  const lines = entries.map(([name, value]) => `${indent}  ${key(name)}: ${inner(value, `${indent}  `)},`);
  return `{\n${lines.join("\n")}\n${indent}}`;
}

/** The catalog's type names must stay free: a component schema of the same name would clash. */
function checkTypeNames(spec: CatalogSpec): void {
  for (const name of CATALOG_TYPE_NAMES) {
    if (spec.components?.schemas?.[name] !== undefined) {
      throw new Error(`catalog: the component schema ${name} would clash with the catalog's type of that name`);
    }
  }
}

/** The file's header, the event types and the events of each type. */
function eventsSource(catalog: Catalog): string {
  const events = nested(Object.entries(catalog.events), "", (values) => `${list(values)}`);
  return `// Generated by scripts/catalog.ts from the bundled openapi/openapi.yaml: do not edit by hand; run \`pnpm generate\`.
// The spec's vocabulary as values. Import these lists rather than typing them again: an event added to the spec
// then reaches every package by regenerating this file.

/** Every webhook event \`type\`, in the order of the spec's \`webhooks\`. */
export const webhookEventTypes = ${list(catalog.eventTypes)} as const;

/** The events (the \`event\` values) of each webhook event type: the statuses a record announces. */
export const webhookEventsByType = ${events} as const;

/** An \`event\` of webhook type \`T\` (of any type when \`T\` is left out). */
export type WebhookEventName<T extends keyof typeof webhookEventsByType = keyof typeof webhookEventsByType> =
  (typeof webhookEventsByType)[T][number];

`;
}

/** The metadata rules of each event, and their types. */
function metadataSource(catalog: Catalog): string {
  const metadata = nested(Object.entries(catalog.metadata), "", (byEvent, indent) =>
    nested(Object.entries(byEvent), indent, (rules, inner) =>
      nested(Object.entries(rules), inner, (rule) => ruleSource(rule)),
    ),
  );
  return `/**
 * What one metadata key of a webhook event may hold. The value is a string; \`{}\` means a required string.
 */
export interface WebhookMetadataRule {
  /** The key may be left out. */
  readonly optional?: true;
  /** The value may be null. */
  readonly nullable?: true;
  /** The only values allowed (the schema's enum or const); without it any string is. */
  readonly values?: readonly string[];
  /** The key is required (even when \`optional\`) when the key \`key\` holds \`value\` (the schema's if/then). */
  readonly requiredWhen?: { readonly key: string; readonly value: string };
}

/**
 * The metadata of each webhook event, by type, event and key: the keys the spec describes and what each may
 * hold, the failure, refund and review reasons among them. Servers may add keys the spec does not describe.
 */
export const webhookMetadataRules = ${metadata} as const satisfies {
  readonly [type: string]: { readonly [event: string]: { readonly [key: string]: WebhookMetadataRule } };
};

/**
 * The values metadata key \`K\` of event \`E\` of type \`T\` may hold: the listed values (e.g. the failure reasons
 * \`WebhookMetadataValue<"CUSTOMER", "FAILED", "failure_reason">\`), or string when any text is allowed.
 */
export type WebhookMetadataValue<
  T extends keyof typeof webhookMetadataRules,
  E extends keyof (typeof webhookMetadataRules)[T],
  K extends keyof (typeof webhookMetadataRules)[T][E],
> = (typeof webhookMetadataRules)[T][E][K] extends { readonly values: readonly (infer V)[] } ? V : string;

`;
}

/** The enumerated statuses of each record, and their types. */
function statusesSource(catalog: Catalog): string {
  const statuses = nested(Object.entries(catalog.statuses), "", (values) => `${list(values)}`);
  return `/**
 * The values of each record's enumerated status, by component schema (\`status\`, or a \`*_status\` property).
 * Records whose status the spec leaves open (no enum) are not listed.
 */
export const recordStatuses = ${statuses} as const;

/** A component schema with an enumerated status. */
export type RecordWithStatus = keyof typeof recordStatuses;

/** A status of record \`R\`, e.g. \`RecordStatus<"PayoutOrder">\`. */
export type RecordStatus<R extends RecordWithStatus> = (typeof recordStatuses)[R][number];
`;
}

/** The source of src/generated/catalog.ts. */
export function generateCatalog(spec: CatalogSpec): string {
  checkTypeNames(spec);
  const catalog = readCatalog(spec);
  return eventsSource(catalog) + metadataSource(catalog) + statusesSource(catalog);
}
