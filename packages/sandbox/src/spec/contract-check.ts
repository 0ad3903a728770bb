// Checks an exchange against a contract: which operation a request is for, its credentials, parameters and body,
// and the answer's status and body. Ajv over the bundled spec with the options of the sandbox's own validation
// (ajv.ts). With a real service the contract is the published spec, which holds none of the sandbox's rules; with
// the sandbox it is the sandbox's spec (the published one with its overlay applied, `x-sandbox-required` folded).
import { readSandboxSpec, readSpec } from "@exchange-kit/openapi";
import { parseJson } from "@exchange-kit/signing";
import { foldSandboxRequired } from "./sandbox-required.js";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import {
  declaredResponse,
  decodeSegment,
  type ExchangeHeaders,
  headerOf,
  isJson,
  jsonSchemaOf,
  missingCredentials,
  operationsOf,
  parametersSchema,
  queryOf,
  resolve,
  type Operation,
  type Schema,
  type Spec,
} from "./contract-operations.js";

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
// ajv-formats is CommonJS: under NodeNext the default import is module.exports, which also carries `.default`.
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  (addFormatsModule as unknown as FormatsPlugin);

/** One way a request or an answer breaks the contract: where and why, never a value from the exchange. */
export interface ContractViolation {
  /** The operation the request is for; undefined when no operation of the spec has its method and path. */
  operationId: string | undefined;
  /** Whether the request (the client's side of the contract) or the answer (the service's) breaks it. */
  part: "request" | "response";
  /** A JSON pointer into the exchange: `/path/customer_id`, `/query/page`, `/headers/x-signature`, `/body/email`, `/status`. */
  pointer: string;
  /** The JSON Schema keyword that failed (`required`, `type`, `pattern`, ...), or `operation`, `security`, `status`, `content-type`, `json`. */
  rule: string;
  /** What the rule asks for, e.g. `must match pattern "^[A-Z]{3}$"`. */
  message: string;
}

/** A request as the client sent it. */
export interface ExchangeRequest {
  method: string;
  /** The path and the query, as in the request line: `/cms/api/v1/customer/list?page=2`. */
  url: string;
  /** Header values by lower-case name. */
  headers: ExchangeHeaders;
  /** The body's bytes, decoded from any Content-Encoding; undefined when they were not kept (too large): not checked. */
  body: Uint8Array | undefined;
}

/** An answer as the service sent it. */
export interface ExchangeResponse {
  status: number;
  /** Header values by lower-case name. */
  headers: ExchangeHeaders;
  /** The body's bytes, decoded from any Content-Encoding; undefined when they were not kept: not checked. */
  body: Uint8Array | undefined;
}

/** Checks exchanges against the published spec; each validator is compiled on first use and kept. */
export interface ContractChecker {
  /** The operationId of the spec's operation for this method and path (the query is ignored), or undefined. */
  operationFor(method: string, url: string): string | undefined;
  /** What in a request breaks the spec: no such operation, a credential header missing, a parameter, the body. */
  checkRequest(request: ExchangeRequest): ContractViolation[];
  /** What in the answer to a request breaks the spec: an undeclared status, the body (not for HEAD). */
  checkResponse(request: Pick<ExchangeRequest, "method" | "url">, response: ExchangeResponse): ContractViolation[];
}

type Base = Pick<ContractViolation, "operationId" | "part">;

const SPEC_ID = "exchange-contract";
/** Points the spec's `#/components/...` references at the registered spec document. */
const anchored = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(anchored);
  if (!value || typeof value !== "object") return value;
  const entries = Object.entries(value).map(([k, v]) => [
    k,
    k === "$ref" && typeof v === "string" && v.startsWith("#/") ? SPEC_ID + v : anchored(v),
  ]);
  return Object.fromEntries(entries);
};

function createAjv(spec: Spec, coerceTypes: boolean): Ajv2020 {
  // strict: false because OpenAPI adds keywords JSON Schema does not know (discriminator, example), as in ajv.ts.
  const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes, useDefaults: false });
  addFormats(ajv);
  ajv.addSchema({ $id: SPEC_ID, components: anchored(spec.components) });
  return ajv;
}

const escapePointer = (token: string) => token.replace(/~/g, "~0").replace(/\//g, "~1");

/** Where an error points: the member (a missing or an unknown one too), never its value. */
function pointerOf(error: ErrorObject, prefix: string): string {
  const member = error.params.missingProperty ?? error.params.additionalProperty;
  return `${prefix}${error.instancePath}${member === undefined ? "" : `/${escapePointer(String(member))}`}`;
}

const COMBINATORS = new Set(["anyOf", "oneOf"]);

/**
 * The errors of each alternative of a failed anyOf/oneOf, folded into its message ("must match a schema in anyOf:
 * /body/full_name required, or /body/first_name required and /body/last_name required"): one violation that says
 * what would do, rather than one per member of every alternative. Alternatives behind a `$ref` are reported apart.
 */
function foldAlternatives(errors: readonly ErrorObject[], prefix: string): Map<ErrorObject, string> {
  const folded = new Map<ErrorObject, string>();
  for (const combinator of errors.filter((e) => COMBINATORS.has(e.keyword))) {
    const branches = new Map<string, string[]>();
    for (const error of errors) {
      if (!error.schemaPath.startsWith(`${combinator.schemaPath}/`)) continue;
      const branch = error.schemaPath.slice(combinator.schemaPath.length + 1).split("/")[0]!;
      branches.set(branch, [...(branches.get(branch) ?? []), `${pointerOf(error, prefix)} ${error.keyword}`]);
      folded.set(error, "");
    }
    const alternatives = [...branches.values()].map((list) => list.join(" and ")).join(", or ");
    if (alternatives) folded.set(combinator, `${combinator.message}: ${alternatives}`);
  }
  return folded;
}

/** Ajv's errors as violations, each where and which rule, never a value. */
function violationsOf(errors: readonly ErrorObject[], base: Base, prefix: string): ContractViolation[] {
  const folded = foldAlternatives(errors, prefix);
  const out = new Map<string, ContractViolation>();
  for (const error of errors) {
    // A failed `if` only says its `then` failed, which is reported itself; a folded error is in its combinator's message.
    if (error.keyword === "if" || folded.get(error) === "") continue;
    const pointer = pointerOf(error, prefix);
    const message = folded.get(error) || error.message || error.keyword;
    out.set(`${pointer}|${error.keyword}|${message}`, { ...base, pointer, rule: error.keyword, message });
  }
  return [...out.values()];
}

interface Body {
  required: boolean;
  contentType: string | undefined;
  bytes: Uint8Array | undefined;
}

/** A JSON body against its schema: missing, of another media type, not JSON, or the schema's violations. */
function checkBody(validator: () => ValidateFunction, body: Body, base: Base): ContractViolation[] {
  if (body.bytes === undefined) return [];
  if (body.bytes.length === 0)
    return body.required ? [{ ...base, pointer: "/body", rule: "required", message: `${base.part} body missing` }] : [];
  if (!isJson(body.contentType))
    return [{ ...base, pointer: "/headers/content-type", rule: "content-type", message: "must be application/json" }];
  let value: unknown;
  try {
    value = parseJson(new TextDecoder("utf-8", { fatal: true }).decode(body.bytes));
  } catch {
    return [{ ...base, pointer: "/body", rule: "json", message: "must be valid JSON" }];
  }
  const validate = validator();
  return validate(value) ? [] : violationsOf(validate.errors ?? [], base, "/body");
}

interface Context {
  spec: Spec;
  /** The operation for a method and a path, with the path parameters' values (decoded). */
  find(method: string, url: string): { op: Operation; values: string[] } | undefined;
  /** A validator of `schema` under `key`, compiled on first use. */
  compiled(key: string, schema: Schema, coerce?: boolean): () => ValidateFunction;
}

function contextOf(spec: Spec): Context {
  const operations = operationsOf(spec);
  const ajv = { plain: createAjv(spec, false), coercing: createAjv(spec, true) };
  const cache = new Map<string, ValidateFunction>();
  const compiled =
    (key: string, schema: Schema, coerce = false) =>
    () => {
      let validate = cache.get(key);
      if (!validate)
        cache.set(key, (validate = (coerce ? ajv.coercing : ajv.plain).compile(anchored(schema) as Schema)));
      return validate;
    };
  const find = (method: string, url: string) => {
    const path = url.split("?")[0] ?? "";
    for (const op of operations) {
      const match = op.method === method.toUpperCase() ? op.regex.exec(path) : null;
      if (match) return { op, values: match.slice(1).map(decodeSegment) };
    }
    return undefined;
  };
  return { spec, find, compiled };
}

const unknownOperation = (request: ExchangeRequest): ContractViolation => ({
  operationId: undefined,
  part: "request",
  pointer: "",
  rule: "operation",
  message: `no operation for ${request.method.toUpperCase()} ${request.url.split("?")[0]}`,
});

/** Path, query and header parameters against the operation's, as one object (values coerced, as they are strings). */
function checkParameters(ctx: Context, op: Operation, values: string[], request: ExchangeRequest, base: Base) {
  const instance = {
    path: Object.fromEntries(op.names.map((n, i) => [n, values[i]])),
    query: queryOf(request.url),
    headers: { ...request.headers },
  };
  const validate = ctx.compiled(`${op.id} parameters`, parametersSchema(op), true)();
  return validate(instance) ? [] : violationsOf(validate.errors ?? [], base, "");
}

function checkRequest(ctx: Context, request: ExchangeRequest): ContractViolation[] {
  const found = ctx.find(request.method, request.url);
  if (!found) return [unknownOperation(request)];
  const { op, values } = found;
  const base: Base = { operationId: op.id, part: "request" };
  const missing = missingCredentials(ctx.spec, op, request.headers).map((header) => ({
    ...base,
    pointer: `/headers/${header.toLowerCase()}`,
    rule: "security",
    message: `must send the ${header} header`,
  }));
  const bodySpec = resolve(ctx.spec, op.operation.requestBody);
  const schema = jsonSchemaOf(bodySpec);
  const contentType = headerOf(request.headers, "content-type");
  const body = { required: bodySpec.required === true, contentType, bytes: request.body };
  return [
    ...missing,
    ...checkParameters(ctx, op, values, request, base),
    ...(schema ? checkBody(ctx.compiled(`${op.id} request`, schema), body, base) : []),
  ];
}

function checkResponse(
  ctx: Context,
  request: Pick<ExchangeRequest, "method" | "url">,
  response: ExchangeResponse,
): ContractViolation[] {
  const found = ctx.find(request.method, request.url);
  if (!found) return [];
  const base: Base = { operationId: found.op.id, part: "response" };
  const declared = declaredResponse(found.op, response.status);
  if (!declared) {
    const message = `status ${response.status} is not declared for this operation`;
    return [{ ...base, pointer: "/status", rule: "status", message }];
  }
  const schema = jsonSchemaOf(resolve(ctx.spec, declared[1]));
  if (!schema || request.method.toUpperCase() === "HEAD") return [];
  const body = { required: true, contentType: headerOf(response.headers, "content-type"), bytes: response.body };
  return checkBody(ctx.compiled(`${found.op.id} ${declared[0]}`, schema), body, base);
}

/** Which contract a checker holds exchanges to. */
export interface ContractCheckerOptions {
  /** `service` (default): the published spec, as the real service states it; `sandbox`: the sandbox's spec. */
  against?: "service" | "sandbox";
}

/**
 * A checker of exchanges against the published spec (`@exchange-kit/openapi`), e.g. in a proxy between a client
 * and the real service; `{ against: "sandbox" }` holds them to the sandbox's spec instead (a proxy in front of
 * the sandbox, where an http:// loopback webhook URL is allowed and the sandbox's required members are required).
 *
 * @example
 * const checker = createContractChecker();
 * for (const v of checker.checkRequest({ method: "POST", url: "/cms/api/v1/customer/create", headers, body }))
 *   console.log(v.operationId, v.pointer, v.rule);
 */
export function createContractChecker(options: ContractCheckerOptions = {}): ContractChecker {
  const document = options.against === "sandbox" ? foldSandboxRequired(readSandboxSpec()) : readSpec();
  const ctx = contextOf(document as unknown as Spec);
  return {
    operationFor: (method, url) => ctx.find(method, url)?.op.id,
    checkRequest: (request) => checkRequest(ctx, request),
    checkResponse: (request, response) => checkResponse(ctx, request, response),
  };
}
