// Compares two JSON Schemas (OpenAPI 3.1 flavour) as a client sees them. The direction decides what breaks:
// a client sends requests (the service may refuse more than before) and reads responses (it may receive more
// than before). References are resolved inside each document; a pair already compared is not compared twice.
import type { Change, Direction, Json, JsonObject } from "./types.ts";

type Report = (change: Omit<Change, "where"> & { at: string }) => void;

export interface SchemaContext {
  oldDoc: JsonObject;
  newDoc: JsonObject;
  direction: Direction;
  report: Report;
  seen: Set<string>;
}

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

function types(schema: JsonObject): Set<string> | undefined {
  const t = schema.type;
  if (typeof t === "string") return new Set(t === "integer" ? ["integer"] : [t]);
  if (Array.isArray(t)) return new Set(t.filter((x): x is string => typeof x === "string"));
  return undefined;
}

function values(schema: JsonObject): Json[] | undefined {
  if ("const" in schema) return [schema.const as Json];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const show = (v: Json) => (typeof v === "string" ? v : JSON.stringify(v));
const list = (vs: Iterable<Json>) => [...vs].map(show).join(", ");

/** Lower bounds: a larger value accepts less. Upper bounds: a smaller value accepts less. */
const LOWER = ["minLength", "minimum", "exclusiveMinimum", "minItems", "minProperties"] as const;
const UPPER = ["maxLength", "maximum", "exclusiveMaximum", "maxItems", "maxProperties"] as const;
/** Keywords compared as a whole: any change is reported (breaking when it may refuse what passed before). */
const RULES = ["if", "then", "else", "not", "dependentRequired", "pattern", "propertyNames", "multipleOf"] as const;

/** Compares two schemas at `at` (a readable location) and reports every difference a client can notice. */
export function compareSchemas(
  ctx: SchemaContext,
  oldRaw: Json | undefined,
  newRaw: Json | undefined,
  at: string,
): void {
  const oldRef = isObject(oldRaw) && typeof oldRaw.$ref === "string" ? oldRaw.$ref : undefined;
  const newRef = isObject(newRaw) && typeof newRaw.$ref === "string" ? newRaw.$ref : undefined;
  if (oldRef !== undefined && oldRef === newRef) {
    // One component, wherever it is used: compared once per direction and reported under its own name, which
    // also ends recursion through self-referencing schemas.
    const key = `${ctx.direction}|${oldRef}`;
    if (ctx.seen.has(key)) return;
    ctx.seen.add(key);
    at = `${ctx.direction} schema ${oldRef.split("/").pop() ?? oldRef}:`;
  } else if (oldRef !== undefined || newRef !== undefined) {
    const key = `${ctx.direction}|${oldRef}|${newRef}`;
    if (ctx.seen.has(key)) return;
    ctx.seen.add(key);
  }
  const oldSchema = deref(ctx.oldDoc, oldRaw);
  const newSchema = deref(ctx.newDoc, newRaw);
  if (!isObject(oldSchema) || !isObject(newSchema)) {
    if (!same(oldSchema, newSchema)) {
      ctx.report({ rule: "schema-changed", breaking: true, at, message: "the schema was replaced" });
    }
    return;
  }
  const request = ctx.direction === "request";

  // type
  const ot = types(oldSchema);
  const nt = types(newSchema);
  if (!same(ot && [...ot].sort(), nt && [...nt].sort())) {
    const removed = ot ? (nt ? [...ot].filter((t) => !nt.has(t)) : []) : ["any"];
    const added = nt ? (ot ? [...nt].filter((t) => !ot.has(t)) : []) : ["any"];
    const narrowed = removed.length > 0;
    const widened = added.length > 0;
    ctx.report({
      rule: "type-changed",
      breaking: request ? narrowed : widened,
      at,
      message: `type ${ot ? list(ot) : "any"} -> ${nt ? list(nt) : "any"}`,
    });
  }

  // format
  if (oldSchema.format !== newSchema.format) {
    const had = typeof oldSchema.format === "string";
    const has = typeof newSchema.format === "string";
    // A request may now be checked against a format it was not before; a response may lose one a client read.
    const breaking = request ? has : had;
    ctx.report({
      rule: "format-changed",
      breaking,
      at,
      message: `format ${had ? String(oldSchema.format) : "none"} -> ${has ? String(newSchema.format) : "none"}`,
    });
  }

  // enum / const
  const ov = values(oldSchema);
  const nv = values(newSchema);
  if (!same(ov, nv)) {
    const removed = ov && nv ? ov.filter((v) => !nv.some((w) => same(v, w))) : [];
    const added = ov && nv ? nv.filter((v) => !ov.some((w) => same(v, w))) : [];
    if (ov && nv) {
      if (removed.length > 0) {
        ctx.report({
          rule: request ? "request-enum-narrowed" : "response-enum-narrowed",
          breaking: request,
          at,
          message: `values removed: ${list(removed)}`,
        });
      }
      if (added.length > 0) {
        ctx.report({
          rule: request ? "request-enum-widened" : "response-enum-widened",
          breaking: !request,
          at,
          message: request
            ? `values added: ${list(added)}`
            : `values added: ${list(added)} (flagged: code that switches over every known value must handle them)`,
        });
      }
    } else {
      // An enum appeared (the values are now fixed) or disappeared (any value may come).
      ctx.report({
        rule: request
          ? nv
            ? "request-enum-narrowed"
            : "request-enum-widened"
          : nv
            ? "response-enum-narrowed"
            : "response-enum-widened",
        breaking: request ? Boolean(nv) : Boolean(ov),
        at,
        message: nv ? `values now limited to: ${list(nv)}` : `values no longer limited (were: ${list(ov ?? [])})`,
      });
    }
  }

  // numeric and length bounds
  for (const k of [...LOWER, ...UPPER]) {
    const a = oldSchema[k];
    const b = newSchema[k];
    if (a === b) continue;
    const lower = (LOWER as readonly string[]).includes(k);
    const tighter = typeof b === "number" && (typeof a !== "number" || (lower ? b > a : b < a));
    ctx.report({
      rule: tighter ? "constraint-tightened" : "constraint-loosened",
      breaking: request && tighter,
      at,
      message: `${k} ${a ?? "none"} -> ${b ?? "none"}`,
    });
  }
  for (const k of RULES) {
    if (same(oldSchema[k], newSchema[k])) continue;
    ctx.report({
      rule: "rule-changed",
      breaking: request && newSchema[k] !== undefined,
      at,
      message: `\`${k}\` ${oldSchema[k] === undefined ? "added" : newSchema[k] === undefined ? "removed" : "changed"}`,
    });
  }

  // object members
  const op = isObject(oldSchema.properties) ? oldSchema.properties : {};
  const np = isObject(newSchema.properties) ? newSchema.properties : {};
  const oreq = new Set(Array.isArray(oldSchema.required) ? (oldSchema.required as string[]) : []);
  const nreq = new Set(Array.isArray(newSchema.required) ? (newSchema.required as string[]) : []);
  const member = (name: string) => (at.endsWith(":") ? `${at} ${name}` : `${at}.${name}`);
  for (const name of Object.keys(op)) {
    if (name in np) continue;
    ctx.report({
      rule: request ? "request-member-removed" : "response-member-removed",
      breaking: true,
      at: member(name),
      message: request ? "request member removed" : "response member removed",
    });
  }
  for (const name of Object.keys(np)) {
    if (name in op) continue;
    const required = nreq.has(name);
    ctx.report({
      rule: request
        ? required
          ? "request-member-added-required"
          : "request-member-added-optional"
        : "response-member-added",
      breaking: request && required,
      at: member(name),
      message: request ? `${required ? "required" : "optional"} request member added` : "response member added",
    });
  }
  for (const name of nreq) {
    if (oreq.has(name) || (name in np && !(name in op))) continue;
    ctx.report({
      rule: request ? "request-member-became-required" : "response-member-became-required",
      breaking: request,
      at: member(name),
      message: request ? "now required in requests" : "now always present",
    });
  }
  for (const name of oreq) {
    if (nreq.has(name) || (name in op && !(name in np))) continue;
    ctx.report({
      rule: request ? "request-member-became-optional" : "response-member-became-optional",
      breaking: !request,
      at: member(name),
      message: request ? "no longer required in requests" : "may now be absent from responses",
    });
  }
  for (const name of Object.keys(np)) {
    if (name in op) compareSchemas(ctx, op[name], np[name], member(name));
  }
  const oap = oldSchema.additionalProperties;
  const nap = newSchema.additionalProperties;
  if (!same(oap, nap)) {
    if (isObject(oap) && isObject(nap)) compareSchemas(ctx, oap, nap, member("*"));
    else {
      const closed = nap === false;
      ctx.report({
        rule: "additional-members-changed",
        breaking: request ? closed || isObject(nap) : oap === false || (isObject(oap) && nap !== undefined),
        at,
        message: `additionalProperties ${JSON.stringify(oap ?? true)} -> ${JSON.stringify(nap ?? true)}`,
      });
    }
  }

  // arrays
  if (oldSchema.items !== undefined || newSchema.items !== undefined) {
    compareSchemas(ctx, oldSchema.items ?? {}, newSchema.items ?? {}, `${at}[]`);
  }

  // composition: members compared by position
  // anyOf and oneOf are both lists of alternatives; switching one for the other is judged by the members.
  const alternatives = (schema: JsonObject) =>
    Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : [];
  for (const k of ["allOf", "anyOf"] as const) {
    const om = k === "allOf" ? (Array.isArray(oldSchema.allOf) ? oldSchema.allOf : []) : alternatives(oldSchema);
    const nm = k === "allOf" ? (Array.isArray(newSchema.allOf) ? newSchema.allOf : []) : alternatives(newSchema);
    const common = Math.min(om.length, nm.length);
    for (let i = 0; i < common; i++) compareSchemas(ctx, om[i], nm[i], `${at.replace(/:$/, "")} (${k} ${i + 1})`);
    if (om.length === nm.length) continue;
    // allOf: a new member adds constraints. anyOf/oneOf: a new member adds alternatives.
    const grew = nm.length > om.length;
    const accepts = k === "allOf" ? !grew : grew;
    ctx.report({
      rule: "composition-changed",
      breaking: request ? !accepts : accepts,
      at,
      message: `${k === "allOf" ? "allOf" : "anyOf/oneOf"} has ${nm.length} members (was ${om.length})`,
    });
  }
}
