// Builds the code samples of the reference from the spec's request examples: for each example, a TypeScript
// sample (the client method call) and a curl sample (the three signed headers, computed with
// `exchange-kit sign`). Pure functions over a bundled spec; generate.ts writes them, the docs decorator reads them.
// The client's naming rule, shared with the client's generator through @exchange-kit/spec-tools (not the client's
// build: the client is built after the spec).
import { groupOfTag, methodNameOf } from "@exchange-kit/spec-tools/method-names";
import { canonicalize } from "@exchange-kit/signing";
import type { Json, JsonObject } from "../spec-diff/types.ts";
import { deref, isObject } from "../spec-diff/json.ts";

export interface ExampleRequest {
  operationId: string;
  /** The request body example's name, or `parameters` for an operation without a body. */
  example: string;
  /** The body example's summary (what it shows), when it has one. */
  summary: string | undefined;
  method: string;
  path: string;
  group: string;
  methodName: string;
  pathParams: [string, Json][];
  query: [string, Json][];
  /** Query parameters the spec lists only as the sandbox's (`x-sandbox-parameters`): sent as `extraQuery`. */
  extraQuery: [string, Json][];
  body: Json | undefined;
}

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

type Pair = [string, Json];

/** The parameters of an operation: its path item's, then its own. */
function parametersOf(spec: JsonObject, item: JsonObject, op: JsonObject): JsonObject[] {
  return [
    ...(Array.isArray(item.parameters) ? item.parameters : []),
    ...(Array.isArray(op.parameters) ? op.parameters : []),
  ]
    .map((p) => deref(spec, p))
    .filter(isObject);
}

/** A parameter's example, or its schema's default. */
const exampleOf = (p: JsonObject): Json | undefined =>
  p.example ?? (isObject(p.schema) ? (p.schema.default ?? undefined) : undefined);

/** Each `{name}` of the path with its parameter's example (the name itself when there is none). */
function pathParamsOf(path: string, params: JsonObject[]): Pair[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => {
    const p = params.find((q) => q.in === "path" && q.name === name);
    return [name!, (p && exampleOf(p)) ?? name!] as Pair;
  });
}

/** The query parameters that have an example. */
function queryOf(params: JsonObject[]): Pair[] {
  return params
    .filter((p) => p.in === "query" && exampleOf(p) !== undefined)
    .map((p) => [String(p.name), exampleOf(p)!] as Pair);
}

/** The sandbox's required query parameters (`x-sandbox-parameters`) that have an example. */
function extraQueryOf(op: JsonObject): Pair[] {
  const sandbox = Array.isArray(op["x-sandbox-parameters"]) ? op["x-sandbox-parameters"].filter(isObject) : [];
  return sandbox
    .filter((p) => p.in === "query" && p.required === true && p.example !== undefined)
    .map((p) => [String(p.name), p.example!] as Pair);
}

interface BodyExample {
  name: string;
  summary: string | undefined;
  value: Json;
}

/** The JSON request body examples of an operation, in the spec's order. */
function bodyExamplesOf(spec: JsonObject, op: JsonObject): BodyExample[] {
  const body = deref(spec, op.requestBody);
  const media = isObject(body) && isObject(body.content) ? body.content["application/json"] : undefined;
  const examples = isObject(media) && isObject(media.examples) ? media.examples : {};
  return Object.keys(examples).map((name) => {
    const ex = deref(spec, examples[name]);
    const summary = isObject(ex) && typeof ex.summary === "string" ? ex.summary : undefined;
    return { name, summary, value: isObject(ex) ? (ex.value ?? null) : null };
  });
}

/** The requests of one operation: one per body example, or one with the parameter examples. */
function requestsOf(spec: JsonObject, path: string, item: JsonObject, method: string): ExampleRequest[] {
  const op = item[method];
  if (!isObject(op) || typeof op.operationId !== "string") return [];
  const tag = Array.isArray(op.tags) && typeof op.tags[0] === "string" ? op.tags[0] : "";
  const group = groupOfTag(tag);
  const params = parametersOf(spec, item, op);
  const base = {
    operationId: op.operationId,
    method: method.toUpperCase(),
    path,
    group,
    methodName: methodNameOf(op.operationId, group),
    pathParams: pathParamsOf(path, params),
    query: queryOf(params),
    extraQuery: extraQueryOf(op),
  };
  const bodies = bodyExamplesOf(spec, op);
  if (bodies.length === 0) return [{ ...base, example: "parameters", summary: undefined, body: undefined }];
  return bodies.map(({ name, summary, value }) => ({ ...base, example: name, summary, body: value }));
}

/** One request per body example; one with the parameter examples for an operation without a body. */
export function exampleRequests(spec: JsonObject): ExampleRequest[] {
  const out: ExampleRequest[] = [];
  for (const [path, rawItem] of Object.entries(isObject(spec.paths) ? spec.paths : {})) {
    const item = deref(spec, rawItem);
    if (!isObject(item)) continue;
    for (const method of METHODS) out.push(...requestsOf(spec, path, item, method));
  }
  return out;
}

/** A JS literal of a JSON value, as a person would write it (identifier keys unquoted, two-space indent). */
export function literal(value: Json, indent = ""): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const inner = indent + "  ";
    return `[\n${value.map((v) => inner + literal(v, inner)).join(",\n")},\n${indent}]`;
  }
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const inner = indent + "  ";
    const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
    return `{\n${entries.map(([k, v]) => `${inner}${key(k)}: ${literal(v, inner)}`).join(",\n")},\n${indent}}`;
  }
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

export const TS_PRELUDE = [
  'import { createExchangeClient } from "@exchange-kit/client";',
  "",
  "// Reads EXCHANGE_BASE_URL, EXCHANGE_API_KEY and EXCHANGE_API_SECRET; signs every request.",
  "const client = createExchangeClient();",
  "",
];

/** The example's summary as a comment line (with `marker`), so a sample says which example it sends. */
const summaryLine = (req: ExampleRequest, marker: string): string[] =>
  req.summary === undefined ? [] : [`${marker} ${req.summary.replace(/\s+/g, " ")}`];

/** The statements of the TypeScript sample after its prelude: the call and the use of its result. */
export function typescriptCall(req: ExampleRequest): string {
  const args = req.pathParams.map(([, v]) => literal(v));
  if (req.body !== undefined) args.push(literal(req.body));
  const options: JsonObject = Object.fromEntries(req.query);
  if (req.extraQuery.length > 0) options.extraQuery = Object.fromEntries(req.extraQuery);
  if (Object.keys(options).length > 0) args.push(literal(options));
  const call = `client.${req.group}.${req.methodName}`;
  const comment =
    req.extraQuery.length > 0
      ? "// extraQuery: the sandbox's parameter names; the interface does not publish them.\n"
      : "";
  const oneLine = `${comment}const data = await ${call}(${args.join(", ")});`;
  return [...summaryLine(req, "//"), oneLine, "console.log(data);"].join("\n");
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The curl sample: how to get the three headers from `exchange-kit sign`, and the request it prints. */
export function curlSample(req: ExampleRequest): string {
  const path = req.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    String(req.pathParams.find(([n]) => n === name)?.[1] ?? name),
  );
  const query = [...req.query, ...req.extraQuery]
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join("&");
  const url = `"$EXCHANGE_BASE_URL${path}${query ? `?${query}` : ""}"`;
  // The canonical body is the one signed and the one sent, byte for byte.
  const body = req.body === undefined ? undefined : canonicalize(req.body as object);
  const lines = [
    ...summaryLine(req, "#").flatMap((line) => [line, ""]),
    "# X-API-KEY, X-TIMESTAMP and X-SIGNATURE, with the exact body to send: `exchange-kit sign` reads",
    "# EXCHANGE_API_KEY and EXCHANGE_API_SECRET and prints a ready curl command (--url). The signature is",
    '# Base64(HMAC-SHA256(secret, apiKey + "|" + timestamp + "|" + canonicalBody))' +
      (body === undefined ? ', over "{}" without a body.' : "."),
    `exchange-kit sign --method ${req.method} --url ${url}${body === undefined ? "" : ` \\\n  --body ${shellQuote(body)}`}`,
    "",
    "# which prints:",
    `curl -X ${req.method} ${url} \\`,
    '  -H "X-API-KEY: $EXCHANGE_API_KEY" \\',
    '  -H "X-TIMESTAMP: <Unix seconds, within 300 s of the server>" \\',
    `  -H "X-SIGNATURE: <Base64 HMAC-SHA256>"${body === undefined ? "" : " \\"}`,
  ];
  if (body !== undefined) lines.push('  -H "Content-Type: application/json" \\', `  --data-raw ${shellQuote(body)}`);
  return lines.join("\n");
}

/** The x-codeSamples of every operation, by operationId: TypeScript and curl for each of its examples. */
export function codeSamples(spec: JsonObject): Record<string, CodeSample[]> {
  const out: Record<string, CodeSample[]> = {};
  const requests = exampleRequests(spec);
  for (const req of requests) {
    const several = requests.filter((r) => r.operationId === req.operationId).length > 1;
    const suffix = several ? ` (${req.example})` : "";
    (out[req.operationId] ??= []).push(
      { lang: "TypeScript", label: `TypeScript${suffix}`, source: [...TS_PRELUDE, typescriptCall(req)].join("\n") },
      { lang: "curl", label: `curl${suffix}`, source: curlSample(req) },
    );
  }
  return out;
}

/** A TypeScript module with every sample's statements in a function of its own, for the type checker. */
export function typeCheckModule(spec: JsonObject): string {
  const lines = [
    "// Generated by openapi/code-samples/generate.ts from the spec's request examples: do not edit.",
    "// Every TypeScript sample of the reference, each in its own function, so `tsc` checks them against the client.",
    'import type { ExchangeClient } from "@exchange-kit/client";',
    "",
  ];
  for (const req of exampleRequests(spec)) {
    const name = `${req.operationId}_${req.example}`.replace(/[^\w$]/g, "_");
    const body = typescriptCall(req)
      .split("\n")
      .map((l) => `  ${l}`.replace(/\s+$/, ""))
      .join("\n");
    lines.push(`export async function ${name}(client: ExchangeClient): Promise<void> {`, body, "}", "");
  }
  return lines.join("\n");
}
