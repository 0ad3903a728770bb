// The sandbox's spec (@exchange-kit/openapi's sandbox/openapi.json: the published contract with the sandbox's
// overlay applied, openapi/overlays/sandbox.yaml) is the single source of the request schemas, the per-operation
// error codes and the response schemas: nothing here is retyped by hand.
import { readSandboxSpec } from "@exchange-kit/openapi";
import { foldSandboxRequired } from "./sandbox-required.js";

/** A JSON Schema fragment as it appears in the spec. */
export type JsonSchema = Record<string, unknown>;

interface MediaType {
  schema?: JsonSchema;
}
interface ResponseObject {
  content?: Record<string, MediaType>;
}
interface ParameterObject {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: JsonSchema;
}
interface OperationObject {
  operationId: string;
  parameters?: Array<ParameterObject | { $ref: string }>;
  requestBody?: { content?: Record<string, MediaType> };
  responses: Record<string, ResponseObject | { $ref: string }>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components: Record<string, Record<string, unknown>>;
  webhooks: Record<string, Record<string, OperationObject>>;
}

export const spec = foldSandboxRequired(readSandboxSpec()) as unknown as OpenApiDocument;

/** What the server needs to know about one operation of the spec. */
export interface SpecOperation {
  operationId: string;
  method: string;
  /** The templated path, e.g. /cms/api/v1/customer/{customer_id}. */
  path: string;
  parameters: ParameterObject[];
  bodySchema: JsonSchema | undefined;
  /** The err_code enum of the 400 response; undefined when the 400 body is not the standard envelope. */
  errCodes400: ReadonlySet<string> | undefined;
  /** The statuses whose body names its field errors `error` instead of `errors` (the remittance quotation's 400, 500). */
  errorKeyStatuses: ReadonlySet<string>;
  responses: Record<string, ResponseObject>;
}

function resolveRef<T>(value: T | { $ref: string }): T {
  if (value && typeof value === "object" && "$ref" in value && typeof value.$ref === "string") {
    let node: unknown = spec;
    for (const part of value.$ref.replace(/^#\//, "").split("/")) {
      node = (node as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    }
    return node as T;
  }
  return value as T;
}

// The remittance quotation's own error bodies (E16: "the field errors under a key named `error`").
const ERROR_KEY_ENVELOPES = /\/(RemittanceErrorEnvelope|RemittanceInternalErrorEnvelope)$/;

function usesErrorKey(response: ResponseObject | undefined): boolean {
  const ref = response?.content?.["application/json"]?.schema?.$ref;
  return typeof ref === "string" && ERROR_KEY_ENVELOPES.test(ref);
}

function errCodesOf(response: ResponseObject | undefined): Set<string> | undefined {
  // An operation with only the general codes references the shared GeneralErrorEnvelope; the others narrow inline.
  const schema = resolveRef(response?.content?.["application/json"]?.schema);
  const allOf = schema?.allOf as JsonSchema[] | undefined;
  const narrowed = (allOf?.[1]?.properties as Record<string, JsonSchema> | undefined)?.err_code?.enum;
  return Array.isArray(narrowed) ? new Set(narrowed as string[]) : undefined;
}

function buildOperations(): SpecOperation[] {
  const out: SpecOperation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op || typeof op !== "object" || !("operationId" in op)) continue;
      const responses: Record<string, ResponseObject> = {};
      for (const [status, response] of Object.entries(op.responses)) responses[status] = resolveRef(response);
      const errorKeyStatuses = new Set(Object.keys(responses).filter((status) => usesErrorKey(responses[status])));
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        parameters: (op.parameters ?? []).map((p) => resolveRef(p)),
        bodySchema: op.requestBody?.content?.["application/json"]?.schema,
        errCodes400: errCodesOf(responses["400"]),
        errorKeyStatuses,
        responses,
      });
    }
  }
  return out;
}

/** Every operation of the spec, in spec order. */
export const operations: readonly SpecOperation[] = buildOperations();

const byId = new Map(operations.map((op) => [op.operationId, op]));

export function operation(operationId: string): SpecOperation {
  const op = byId.get(operationId);
  if (!op) throw new Error(`Unknown operationId ${operationId}`);
  return op;
}
