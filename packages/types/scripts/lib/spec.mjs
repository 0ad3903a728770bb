// Loads the spec: the bundled document that @exchange-kit/openapi publishes (its build bundles
// <repo>/openapi/openapi.yaml with the Redocly CLI, every shared piece referenced as `#/components/...`), so the
// types are generated from exactly the file users install. turbo builds that package first (generate: ^build).
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readSpec } from "@exchange-kit/openapi";

const here = dirname(fileURLToPath(import.meta.url));
/** The package directory (packages/types). */
export const packageDir = resolve(here, "../..");

/** The bundled spec (a fresh object each call). */
export function bundleSpec() {
  return readSpec();
}

/** The component name of a local schema reference (`#/components/schemas/Name`), or undefined. */
export function schemaRefName(ref) {
  const prefix = "#/components/schemas/";
  return typeof ref === "string" && ref.startsWith(prefix) ? decodePointer(ref.slice(prefix.length)) : undefined;
}

function decodePointer(token) {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Resolves a local JSON pointer reference (`#/...`) in the document. */
function resolvePointer(doc, ref) {
  if (!ref.startsWith("#/")) throw new Error(`Only local references are supported, got ${ref}`);
  let node = doc;
  for (const token of ref.slice(2).split("/").map(decodePointer)) {
    if (node == null || typeof node !== "object" || !(token in node)) throw new Error(`Unresolvable reference ${ref}`);
    node = node[token];
  }
  return node;
}

/** Follows `$ref`s (of an object whose only other members are annotations) until a non-reference object. */
export function deref(doc, node) {
  let seen = 0;
  while (node && typeof node === "object" && typeof node.$ref === "string") {
    if (++seen > 50) throw new Error(`Reference loop at ${node.$ref}`);
    node = resolvePointer(doc, node.$ref);
  }
  return node;
}

/** The HTTP methods of a path item, in the order OpenAPI lists them. */
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * Every operation of `paths` (or of `webhooks` with `section: "webhooks"`), in document order:
 * `{ key, method, operation, pathItem }` where key is the path (or webhook name).
 */
export function listOperations(doc, section = "paths") {
  const out = [];
  for (const [key, rawItem] of Object.entries(doc[section] ?? {})) {
    const pathItem = deref(doc, rawItem);
    for (const method of HTTP_METHODS) {
      if (pathItem[method]) out.push({ key, method, operation: pathItem[method], pathItem });
    }
  }
  return out;
}

/** The `application/json` media type of a request body or response (a `$ref` is followed), or undefined. */
export function jsonMedia(doc, bodyOrResponse) {
  return deref(doc, bodyOrResponse)?.content?.["application/json"];
}
