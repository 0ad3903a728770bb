// The OpenAPI shapes the generators read, and the walks over them (references, operations, JSON media). Pure: the
// generators read the bundled document with `readSpec()` from @exchange-kit/openapi (the file users install) and
// pass it here as an OpenApiSpec; this package does not load it, so the spec package can use it too.
import { isSchemaObject, type JsonSchema } from "./json-schema.ts";

/** A `$ref` object (its other members, if any, are annotations). */
export interface Reference {
  $ref: string;
}

/** A value that may be given in place or as a reference to a component. */
export type Referable<T> = T | Reference;

export interface MediaType {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, unknown>;
}

export interface RequestBody {
  required?: boolean;
  content?: Record<string, MediaType>;
}

export interface Response {
  description?: string;
  content?: Record<string, MediaType>;
}

export interface Parameter {
  name: string;
  in: "query" | "header" | "path" | "cookie";
  required?: boolean;
  schema?: JsonSchema;
}

export interface Operation {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: Referable<Parameter>[];
  requestBody?: Referable<RequestBody>;
  responses?: Record<string, Referable<Response>>;
  /** Extensions (`x-idempotency`, ...). */
  [extension: `x-${string}`]: unknown;
}

/** The HTTP methods of a path item, in the order OpenAPI lists them. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type PathItem = { [M in HttpMethod]?: Operation } & { parameters?: Referable<Parameter>[] };

export interface Tag {
  name: string;
  description?: string;
}

/** The parts of a bundled OpenAPI 3.1 document the generators read. */
export interface OpenApiSpec {
  tags?: Tag[];
  paths?: Record<string, Referable<PathItem>>;
  webhooks?: Record<string, Referable<PathItem>>;
  components?: {
    schemas?: Record<string, JsonSchema>;
    responses?: Record<string, Response>;
    [section: string]: unknown;
  };
}

/**
 * The bundled spec as the generators read it. The published document is typed loosely (`OpenApiDocument`);
 * redocly lint checks that it is an OpenAPI 3.1 document, which is what OpenApiSpec describes.
 *
 * @example
 * import { readSpec } from "@exchange-kit/openapi";
 * const spec = asOpenApiSpec(readSpec());
 */
export function asOpenApiSpec(document: object): OpenApiSpec {
  return document as OpenApiSpec;
}

/** The component name of a local schema reference (`#/components/schemas/Name`), or undefined. */
export function schemaRefName(ref: unknown): string | undefined {
  const prefix = "#/components/schemas/";
  return typeof ref === "string" && ref.startsWith(prefix) ? decodePointer(ref.slice(prefix.length)) : undefined;
}

function decodePointer(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Resolves a local JSON pointer reference (`#/...`) in the document. */
function resolvePointer(doc: object, ref: string): unknown {
  if (!ref.startsWith("#/")) throw new Error(`Only local references are supported, got ${ref}`);
  let node: unknown = doc;
  for (const token of ref.slice(2).split("/").map(decodePointer)) {
    if (node == null || typeof node !== "object" || !(token in node)) throw new Error(`Unresolvable reference ${ref}`);
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

function isReference(node: unknown): node is Reference {
  return node !== null && typeof node === "object" && typeof (node as { $ref?: unknown }).$ref === "string";
}

/**
 * Follows `$ref`s (of an object whose only other members are annotations) until a non-reference object. The
 * target is trusted to be what the reference stands for (a schema for a schema, a response for a response):
 * redocly lint checks the document's references. `doc` is any JSON document: the catalog reads the spec with a
 * looser type of its own (CatalogSpec, in the types generator).
 */
export function deref<T>(doc: object, node: Referable<T> | undefined): T | undefined {
  let current: unknown = node;
  let seen = 0;
  while (isReference(current)) {
    if (++seen > 50) throw new Error(`Reference loop at ${current.$ref}`);
    current = resolvePointer(doc, current.$ref);
  }
  return current as T | undefined;
}

/** One operation of a path item (or webhook), where it is. */
export interface ListedOperation {
  /** The path, or the webhook name. */
  key: string;
  method: HttpMethod;
  operation: Operation;
  pathItem: PathItem;
}

/**
 * Every operation of `paths` (or of `webhooks` with `section: "webhooks"`), in document order: key is the path
 * (or webhook name).
 */
export function listOperations(doc: OpenApiSpec, section: "paths" | "webhooks" = "paths"): ListedOperation[] {
  const out: ListedOperation[] = [];
  for (const [key, rawItem] of Object.entries(doc[section] ?? {})) {
    const pathItem = deref(doc, rawItem);
    if (pathItem === undefined) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (operation) out.push({ key, method, operation, pathItem });
    }
  }
  return out;
}

/** The `application/json` media type of a request body or response (a `$ref` is followed), or undefined. */
export function jsonMedia(
  doc: OpenApiSpec,
  bodyOrResponse: Referable<RequestBody | Response> | undefined,
): MediaType | undefined {
  return deref(doc, bodyOrResponse)?.content?.["application/json"];
}

/**
 * The err_code values the operation's 400 answer narrows to (the enum of the allOf member that follows the error
 * envelope, see the err-code-enum lint rule), in spec order; empty when it lists general codes only.
 *
 * @example
 * errCodesOf(spec, operation); // ["REQ_INVALID_COUNTRY", ..., "NET_TIMEOUT", "UNKNOWN_ERROR"]
 */
export function errCodesOf(doc: OpenApiSpec, operation: Operation): string[] {
  const schema = deref(doc, jsonMedia(doc, operation.responses?.["400"])?.schema);
  const codes: string[] = [];
  for (const member of isSchemaObject(schema) ? (schema.allOf ?? []) : []) {
    if (!isSchemaObject(member) || member.$ref !== undefined) continue;
    const errCode = deref<JsonSchema>(doc, member.properties?.err_code);
    for (const value of isSchemaObject(errCode) ? (errCode.enum ?? []) : [])
      if (typeof value === "string" && !codes.includes(value)) codes.push(value);
  }
  return codes;
}
