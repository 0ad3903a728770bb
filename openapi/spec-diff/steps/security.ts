// Security, compared by what a client sends (a scheme's key in the document is only a name): an operation that
// asks for more or other credentials breaks, and so does a scheme that sends another header; one that asks for
// fewer does not break a client but weakens what the service checks, and a scheme renamed with the same header
// changes nothing a client sends. Every one of them is a security change, listed under its own heading.
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

/**
 * The effective security of an operation: its alternatives, each the credentials (scheme shapes) a client sends
 * together; an empty alternative (or none at all) lets anyone in.
 */
export function alternativesOf(doc: JsonObject, op: Operation): string[][] {
  const security = op.operation.security ?? doc.security ?? [];
  const alternatives = Array.isArray(security) ? security : [];
  const schemes = schemesOf(doc);
  const credentials = (alt: Json) => (isObject(alt) ? Object.keys(alt).map((k) => schemeShape(doc, schemes[k])) : []);
  return alternatives.map((alt) => credentials(alt).sort());
}

/** The alternatives as one line, e.g. `apiKey header X-API-KEY + apiKey header X-SIGNATURE`, or `none`. */
export const showSecurity = (alternatives: string[][]) =>
  alternatives
    .map((alt) => alt.join(" + ") || "anonymous")
    .sort()
    .join(" | ") || "none";

const letsIn = (sent: string[], needed: string[]) => needed.every((credential) => sent.includes(credential));
const letsAnyoneIn = (alternatives: string[][]) =>
  alternatives.length === 0 || alternatives.some((a) => a.length === 0);

/**
 * How an operation's security changed for clients: `loosened` when every client let in before still is (each old
 * alternative's credentials still satisfy a new one), `tightened` when every way in now needs more than an old one,
 * else `changed`.
 */
export function securityChange(before: string[][], after: string[][]): "loosened" | "tightened" | "changed" {
  const admits = (alternatives: string[][], sent: string[]) =>
    letsAnyoneIn(alternatives) || alternatives.some((needed) => letsIn(sent, needed));
  const oldClients = letsAnyoneIn(before) ? [[]] : before;
  if (oldClients.every((sent) => admits(after, sent))) return "loosened";
  const newClients = letsAnyoneIn(after) ? [[]] : after;
  return newClients.every((sent) => admits(before, sent)) ? "tightened" : "changed";
}

const SECURITY_RULES = {
  loosened: { rule: "security-loosened", breaking: false, note: "no client needs new credentials; fewer are checked" },
  tightened: { rule: "security-tightened", breaking: true, note: "clients must send more credentials" },
  changed: { rule: "security-changed", breaking: true, note: "clients must send other credentials" },
} as const;

export const operationSecurityStep: OperationStep = (ctx, { old, current, where, webhook }) => {
  if (webhook) return; // the service calls the client: no credentials the spec describes
  const before = alternativesOf(ctx.oldDoc, old);
  const after = alternativesOf(ctx.newDoc, current);
  if (showSecurity(before) === showSecurity(after)) return;
  const { rule, breaking, note } = SECURITY_RULES[securityChange(before, after)];
  const message = `security ${showSecurity(before)} -> ${showSecurity(after)} (${note})`;
  ctx.add({ rule, breaking, where, message, security: true });
};

const shapesOf = (doc: JsonObject) => new Map(Object.entries(schemesOf(doc)).map(([k, v]) => [k, schemeShape(doc, v)]));

function reportChangedSchemes(ctx: DiffContext, before: Map<string, string>, after: Map<string, string>): void {
  const nameByShape = new Map([...after].map(([k, v]) => [v, k]));
  for (const [name, shape] of before) {
    if (after.get(name) === shape) continue;
    const where = `security scheme ${name}`;
    const renamed = nameByShape.get(shape);
    if (renamed !== undefined) {
      const message = `renamed to ${renamed} (${shape})`;
      ctx.add({ rule: "security-scheme-renamed", breaking: false, where, message, security: true });
      continue;
    }
    const message = after.has(name) ? `${shape} -> ${after.get(name)}` : `scheme removed (${shape})`;
    ctx.add({ rule: "security-changed", breaking: true, where, message, security: true });
  }
}

function reportAddedSchemes(ctx: DiffContext, before: Map<string, string>, after: Map<string, string>): void {
  const oldShapes = new Set(before.values());
  for (const [name, shape] of after) {
    if (before.has(name) || oldShapes.has(shape)) continue;
    const message = `scheme added (${shape})`;
    ctx.add({
      rule: "security-scheme-added",
      breaking: false,
      where: `security scheme ${name}`,
      message,
      security: true,
    });
  }
}

/** Schemes matched by what the client sends: one whose key changed but whose header did not is only renamed. */
export const securitySchemesStep: DocumentStep = (ctx) => {
  const before = shapesOf(ctx.oldDoc);
  const after = shapesOf(ctx.newDoc);
  reportChangedSchemes(ctx, before, after);
  reportAddedSchemes(ctx, before, after);
};
