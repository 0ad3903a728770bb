// Security, compared by what a client sends (a scheme's key in the document is only a name): an operation that
// asks for other credentials breaks, and so does a scheme that sends another header; a scheme renamed with the
// same header does not.
import { deref, isObject } from "../json.ts";
import type { Operation } from "../operations.ts";
import type { Json, JsonObject } from "../types.ts";
import type { DiffContext, DocumentStep, OperationStep } from "./step.ts";

function schemesOf(doc: JsonObject): JsonObject {
  const components = isObject(doc.components) ? doc.components : {};
  return isObject(components.securitySchemes) ? components.securitySchemes : {};
}

/** What a client must send for a scheme: e.g. `apiKey header X-API-KEY`. */
export function schemeShape(doc: JsonObject, scheme: Json | undefined): string {
  const s = deref(doc, scheme);
  if (!isObject(s)) return "undefined scheme";
  return [s.type, s.in, s.name, s.scheme, s.bearerFormat].filter((x) => typeof x === "string").join(" ");
}

/** The effective security of an operation as the alternatives of credentials a client sends, keys resolved. */
export function securityOf(doc: JsonObject, op: Operation): string {
  const security = op.operation.security ?? doc.security ?? [];
  const alternatives = Array.isArray(security) ? security : [];
  const schemes = schemesOf(doc);
  const credentials = (alt: Json) =>
    isObject(alt)
      ? Object.keys(alt)
          .map((k) => schemeShape(doc, schemes[k]))
          .sort()
          .join(" + ")
      : "";
  return alternatives.map(credentials).sort().join(" | ") || "none";
}

export const operationSecurityStep: OperationStep = (ctx, { old, current, where, webhook }) => {
  if (webhook) return; // the service calls the client: no credentials the spec describes
  const before = securityOf(ctx.oldDoc, old);
  const after = securityOf(ctx.newDoc, current);
  if (before === after) return;
  ctx.add({ rule: "security-changed", breaking: true, where, message: `security ${before} -> ${after}` });
};

const shapesOf = (doc: JsonObject) => new Map(Object.entries(schemesOf(doc)).map(([k, v]) => [k, schemeShape(doc, v)]));

function reportChangedSchemes(ctx: DiffContext, before: Map<string, string>, after: Map<string, string>): void {
  const nameByShape = new Map([...after].map(([k, v]) => [v, k]));
  for (const [name, shape] of before) {
    if (after.get(name) === shape) continue;
    const where = `security scheme ${name}`;
    const renamed = nameByShape.get(shape);
    if (renamed !== undefined) {
      ctx.add({ rule: "security-scheme-renamed", breaking: false, where, message: `renamed to ${renamed} (${shape})` });
      continue;
    }
    const message = after.has(name) ? `${shape} -> ${after.get(name)}` : `scheme removed (${shape})`;
    ctx.add({ rule: "security-changed", breaking: true, where, message });
  }
}

function reportAddedSchemes(ctx: DiffContext, before: Map<string, string>, after: Map<string, string>): void {
  const oldShapes = new Set(before.values());
  for (const [name, shape] of after) {
    if (before.has(name) || oldShapes.has(shape)) continue;
    const message = `scheme added (${shape})`;
    ctx.add({ rule: "security-scheme-added", breaking: false, where: `security scheme ${name}`, message });
  }
}

/** Schemes matched by what the client sends: one whose key changed but whose header did not is only renamed. */
export const securitySchemesStep: DocumentStep = (ctx) => {
  const before = shapesOf(ctx.oldDoc);
  const after = shapesOf(ctx.newDoc);
  reportChangedSchemes(ctx, before, after);
  reportAddedSchemes(ctx, before, after);
};
