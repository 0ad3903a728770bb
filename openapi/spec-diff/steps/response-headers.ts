// Response headers, matched by name regardless of case (HTTP header names are case-insensitive). A client reads
// them: a removed header breaks when it was required (a client may rely on it being there), and so does one no
// longer required; a new header, or one now always sent, breaks nobody. Their schemas are compared as responses.
import { deref, isObject } from "../json.ts";
import type { Json, JsonObject } from "../types.ts";
import type { DiffContext } from "./step.ts";

/** A response's headers by lower-case name, references followed. */
export function headersOf(doc: JsonObject, response: Json | undefined): Map<string, JsonObject> {
  const resolved = deref(doc, response);
  const out = new Map<string, JsonObject>();
  if (!isObject(resolved) || !isObject(resolved.headers)) return out;
  for (const [name, raw] of Object.entries(resolved.headers)) {
    const header = deref(doc, raw);
    if (isObject(header)) out.set(name.toLowerCase(), header);
  }
  return out;
}

/** A header's schema: `schema`, or the schema of its single `content` entry. */
function headerSchema(header: JsonObject): Json | undefined {
  if ("schema" in header) return header.schema;
  const media = isObject(header.content) ? Object.values(header.content)[0] : undefined;
  return isObject(media) ? media.schema : undefined;
}

interface HeaderChange {
  rule: string;
  breaking: boolean;
  message: string;
}

/**
 * What a header's presence change means to a client reading the response; undefined when nothing changed.
 *
 * @example
 * responseHeaderChange({ required: true }, undefined); // { rule: "response-header-removed", breaking: true, ... }
 */
export function responseHeaderChange(
  before: JsonObject | undefined,
  after: JsonObject | undefined,
): HeaderChange | undefined {
  const wasRequired = before?.required === true;
  const isRequired = after?.required === true;
  if (before && !after) {
    const message = wasRequired ? "required response header removed" : "optional response header removed";
    return { rule: "response-header-removed", breaking: wasRequired, message };
  }
  if (!before && after) return { rule: "response-header-added", breaking: false, message: "response header added" };
  if (wasRequired && !isRequired)
    return { rule: "response-header-became-optional", breaking: true, message: "response header no longer required" };
  if (!wasRequired && isRequired)
    return { rule: "response-header-became-required", breaking: false, message: "response header now required" };
  return undefined;
}

/** Compares the headers of a response kept under the same status; `at` names the response. */
export function compareResponseHeaders(
  ctx: DiffContext,
  before: Json | undefined,
  after: Json | undefined,
  at: string,
) {
  const oldHeaders = headersOf(ctx.oldDoc, before);
  const newHeaders = headersOf(ctx.newDoc, after);
  for (const name of new Set([...oldHeaders.keys(), ...newHeaders.keys()])) {
    const where = `${at} header ${name}`;
    const oldHeader = oldHeaders.get(name);
    const newHeader = newHeaders.get(name);
    const change = responseHeaderChange(oldHeader, newHeader);
    if (change) ctx.add({ ...change, where });
    if (oldHeader && newHeader)
      ctx.compareSchemas("response", headerSchema(oldHeader), headerSchema(newHeader), `${where}:`);
  }
}
