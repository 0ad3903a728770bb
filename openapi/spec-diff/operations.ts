// The operations of a bundled document and what a client sends and reads in them: parameters and JSON bodies.
import { deref, isObject } from "./json.ts";
import type { Json, JsonObject } from "./types.ts";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export type Section = "paths" | "webhooks";

export interface Operation {
  /** How reports name it: `GET /customers` or `webhook CUSTOMER (POST)`. */
  label: string;
  method: string;
  path: string;
  operationId: string | undefined;
  operation: JsonObject;
  pathItem: JsonObject;
}

function labelOf(section: Section, method: string, path: string): string {
  return section === "paths" ? `${method.toUpperCase()} ${path}` : `webhook ${path} (${method.toUpperCase()})`;
}

/** The operations of a section, by label, in the document's order. */
export function operationsOf(doc: JsonObject, section: Section): Map<string, Operation> {
  const out = new Map<string, Operation>();
  const items = isObject(doc[section]) ? doc[section] : {};
  for (const [path, rawItem] of Object.entries(items)) {
    const pathItem = deref(doc, rawItem);
    if (!isObject(pathItem)) continue;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      const label = labelOf(section, method, path);
      const operationId = typeof operation.operationId === "string" ? operation.operationId : undefined;
      out.set(label, { label, method, path, operationId, operation, pathItem });
    }
  }
  return out;
}

/** An operation's parameters (its path item's, then its own, which win), by `in name`, e.g. `query page`. */
export function parametersOf(doc: JsonObject, op: Operation): Map<string, JsonObject> {
  const out = new Map<string, JsonObject>();
  const all = [
    ...(Array.isArray(op.pathItem.parameters) ? op.pathItem.parameters : []),
    ...(Array.isArray(op.operation.parameters) ? op.operation.parameters : []),
  ];
  for (const raw of all) {
    const p = deref(doc, raw);
    if (isObject(p) && typeof p.name === "string" && typeof p.in === "string") out.set(`${p.in} ${p.name}`, p);
  }
  return out;
}

/** The schema of the first JSON media type of a request body or response (references followed). */
export function jsonSchemaOf(doc: JsonObject, holder: Json | undefined): Json | undefined {
  const resolved = deref(doc, holder);
  if (!isObject(resolved) || !isObject(resolved.content)) return undefined;
  const media = Object.entries(resolved.content).find(([type]) => /^application\/(.+\+)?json/.test(type));
  return media && isObject(media[1]) ? media[1].schema : undefined;
}
