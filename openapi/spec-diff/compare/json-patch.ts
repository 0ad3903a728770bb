// RFC 6902 JSON Patch (add, remove, replace, move) on a copy of a document: how a mutation of the comparison says
// what it changes in the bundled spec. Stricter than the RFC in one way: `add` refuses a member that exists (use
// `replace`), so a mutation meant to add a member cannot silently replace one the spec already has.
import { isObject } from "../json.ts";
import type { Json, JsonObject } from "../types.ts";

export type PatchOperation =
  | { op: "add" | "replace"; path: string; value: Json }
  | { op: "remove"; path: string }
  | { op: "move"; from: string; path: string };

/** A typed failure: a patch that does not fit the document (a missing member, a bad index). */
export class PatchError extends Error {
  override name = "PatchError";
}

const tokens = (pointer: string) =>
  pointer
    .split("/")
    .slice(1)
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));

/** The parent of the value a pointer names, and its last token. */
function locate(doc: Json, pointer: string): { parent: JsonObject | Json[]; key: string } {
  const path = tokens(pointer);
  const key = path.pop();
  if (key === undefined) throw new PatchError("a patch cannot replace the whole document");
  let parent: Json | undefined = doc;
  for (const token of path)
    parent = Array.isArray(parent) ? parent[Number(token)] : isObject(parent) ? parent[token] : undefined;
  if (!Array.isArray(parent) && !isObject(parent)) throw new PatchError(`no object or array at ${pointer}`);
  return { parent, key };
}

function read(doc: Json, pointer: string): Json {
  const { parent, key } = locate(doc, pointer);
  const value = Array.isArray(parent) ? parent[Number(key)] : parent[key];
  if (value === undefined) throw new PatchError(`nothing at ${pointer}`);
  return value;
}

function remove(doc: Json, pointer: string): Json {
  const value = read(doc, pointer);
  const { parent, key } = locate(doc, pointer);
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete parent[key];
  return value;
}

function add(doc: Json, pointer: string, value: Json, replace: boolean): void {
  if (replace) read(doc, pointer);
  const { parent, key } = locate(doc, pointer);
  if (!Array.isArray(parent)) {
    if (!replace && key in parent) throw new PatchError(`${pointer} exists: replace it rather than add it`);
    parent[key] = value;
    return;
  }
  const index = key === "-" ? parent.length : Number(key);
  if (!(index >= 0 && index <= parent.length)) throw new PatchError(`bad array index at ${pointer}`);
  parent.splice(index, replace ? 1 : 0, value);
}

/**
 * A copy of `doc` with the operations applied in order.
 *
 * @example
 * applyPatch(spec, [{ op: "remove", path: "/components/schemas/Customer/properties/email" }]);
 */
export function applyPatch<T extends Json>(doc: T, operations: readonly PatchOperation[]): T {
  const copy = structuredClone(doc);
  for (const operation of operations) {
    if (operation.op === "remove") remove(copy, operation.path);
    else if (operation.op === "move") add(copy, operation.path, remove(copy, operation.from), false);
    else add(copy, operation.path, structuredClone(operation.value), operation.op === "replace");
  }
  return copy;
}
