// The operations of the published spec as the contract check reads them: matched by method and path (a literal
// segment wins over a template, as the service routes), with their parameters as one schema, the credentials they
// ask for, and the JSON schema of a body or an answer.

export type Schema = Record<string, unknown>;
/** Header values by lower-case name, as Node gives them (`message.headers`). */
export type ExchangeHeaders = Record<string, string | string[] | undefined>;

export interface Spec {
  paths: Record<string, Record<string, Schema | undefined>>;
  components: Record<string, Record<string, Schema>>;
  security?: unknown;
}

export interface Operation {
  id: string;
  method: string;
  regex: RegExp;
  /** The path parameters' names, in path order. */
  names: string[];
  operation: Schema;
  /** The path item's parameters and the operation's own, references resolved. */
  parameters: Schema[];
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

/** A value with its `#/...` reference (chains too) followed; anything else as it is. */
export function resolve(spec: Spec, value: unknown, depth = 0): Schema {
  const ref = (value as { $ref?: unknown } | undefined)?.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/") || depth > 16) return (value ?? {}) as Schema;
  let node: unknown = spec;
  for (const part of ref.slice(2).split("/"))
    node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  return resolve(spec, node, depth + 1);
}

const escapeRegex = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, "\\$&");

/** Every operation of the spec, the ones with fewer path parameters first (a literal segment wins, as in routing). */
export function operationsOf(spec: Spec): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const regex = new RegExp(
        `^${path
          .split(/\{[^}]+\}/)
          .map(escapeRegex)
          .join("([^/]+)")}$`,
      );
      const raw = [
        ...((item.parameters as unknown[] | undefined) ?? []),
        ...((operation.parameters as unknown[] | undefined) ?? []),
      ];
      out.push({
        id: String(operation.operationId),
        method: method.toUpperCase(),
        regex,
        names,
        operation,
        parameters: raw.map((p) => resolve(spec, p)),
      });
    }
  }
  return out.sort((a, b) => a.names.length - b.names.length);
}

export const headerOf = (headers: ExchangeHeaders, name: string) => {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

export const isJson = (contentType: string | undefined) =>
  /^application\/([\w.+-]*\+)?json\b/i.test(contentType?.trim() ?? "");

/** The schema of the first JSON media type of a request body or a response, if it has one. */
export function jsonSchemaOf(holder: Schema): Schema | undefined {
  const content = holder.content as Record<string, { schema?: Schema }> | undefined;
  const media = content && Object.entries(content).find(([type]) => isJson(type));
  return media?.[1].schema;
}

/** The header a security scheme is sent in (apiKey in a header; Authorization for http schemes); others unchecked. */
function headerNameOf(scheme: Schema | undefined): string | undefined {
  if (scheme?.type === "apiKey" && scheme.in === "header") return String(scheme.name);
  return scheme?.type === "http" ? "authorization" : undefined;
}

/** The credential headers missing for the first alternative, or none when some alternative is complete. */
export function missingCredentials(spec: Spec, op: Operation, headers: ExchangeHeaders): string[] {
  const security = (op.operation.security ?? spec.security ?? []) as Record<string, unknown>[];
  const schemes = spec.components.securitySchemes ?? {};
  const missing = security.map((alternative) =>
    Object.keys(alternative)
      .map((name) => headerNameOf(resolve(spec, schemes[name])))
      .filter((header): header is string => header !== undefined && headerOf(headers, header) === undefined),
  );
  return missing.length === 0 || missing.some((m) => m.length === 0) ? [] : missing[0]!;
}

/** The schema of an operation's parameters as one object: `{ path: {...}, query: {...}, headers: {...} }`. */
export function parametersSchema(op: Operation): Schema {
  const groups: Record<string, { type: "object"; properties: Record<string, unknown>; required: string[] }> = {};
  const LOCATION: Record<string, string> = { path: "path", query: "query", header: "headers" };
  for (const p of op.parameters) {
    const location = LOCATION[String(p.in)];
    if (!location) continue;
    const name = location === "headers" ? String(p.name).toLowerCase() : String(p.name);
    const group = (groups[location] ??= { type: "object", properties: {}, required: [] });
    group.properties[name] = p.schema ?? {};
    if (p.required === true) group.required.push(name);
  }
  return { type: "object", properties: groups };
}

export function queryOf(url: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(url.split("?").slice(1).join("?"))) {
    const seen = query[key];
    query[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return query;
}

export const decodeSegment = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** The response the spec declares for a status: exact, then `4XX`-style, then `default`. */
export function declaredResponse(op: Operation, status: number): [key: string, response: unknown] | undefined {
  const responses = (op.operation.responses ?? {}) as Record<string, unknown>;
  const key = [String(status), `${String(status)[0]}XX`, "default"].find((k) => responses[k] !== undefined);
  return key === undefined ? undefined : [key, responses[key]];
}
