// Validates path, query and body of a request against the operation's schemas in the spec. Validators are
// compiled on first use and cached per operation for the life of the process.
import type { ApiError } from "../domain/api-error.js";
import { compile, type ErrorObject, type ValidateFunction } from "./ajv.js";
import { toApiError } from "./error-mapping.js";
import type { JsonSchema, SpecOperation } from "./openapi.js";

export interface ValidationOptions {
  /** Schema paths whose errors the handler checks itself, with the document's own codes. */
  ignoredSchemaPaths?: readonly string[];
}

interface Compiled {
  params: ValidateFunction | undefined;
  /** The path and query parameters the spec types as integers. */
  integers: readonly string[];
  body: ValidateFunction | undefined;
}

/** An integer as a query or path value: decimal digits, an optional minus (so -1 meets the minimum's message). */
const INTEGER_TEXT = /^-?[0-9]+$/;

/**
 * The Ajv "type" errors of integer parameters sent in another form. Ajv's coercion turns any string JavaScript's
 * Number() reads into a number, so "1e3", "0x10", " 2", "+3" and "1.0" would pass as integers; a client that
 * writes them is not writing an integer.
 */
export function integerFormErrors(integers: readonly string[], params: Record<string, unknown>): ErrorObject[] {
  return integers
    .filter((name) => typeof params[name] === "string" && !INTEGER_TEXT.test(params[name]))
    .map((name) => ({
      keyword: "type",
      instancePath: `/${name}`,
      schemaPath: `#/properties/${name}/type`,
      params: { type: "integer" },
      message: "must be integer",
    }));
}

const cache = new Map<string, Compiled>();

function compileFor(op: SpecOperation): Compiled {
  let compiled = cache.get(op.operationId);
  if (compiled) return compiled;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const integers: string[] = [];
  for (const parameter of op.parameters) {
    if (parameter.in !== "path" && parameter.in !== "query") continue;
    properties[parameter.name] = parameter.schema ?? {};
    if (parameter.required) required.push(parameter.name);
    if (parameter.schema?.type === "integer") integers.push(parameter.name);
  }
  const params =
    Object.keys(properties).length > 0
      ? compile({ type: "object", properties, required }, { coerce: true })
      : undefined;
  const body = op.bodySchema ? compile(op.bodySchema) : undefined;
  compiled = { params, integers, body };
  cache.set(op.operationId, compiled);
  return compiled;
}

/** Compiles every validator up front, so the first request of a kind is as fast as the rest. */
export function precompile(op: SpecOperation): void {
  compileFor(op);
}

/**
 * Validates path and query values (coerced in place: `page=2` becomes the number 2) and the parsed body.
 * Returns the 400 answer, or undefined when the request is valid.
 */
export function validateRequest(
  op: SpecOperation,
  params: Record<string, unknown>,
  body: unknown,
  options: ValidationOptions = {},
): ApiError | undefined {
  const { params: paramsValidator, integers, body: bodyValidator } = compileFor(op);
  const ignored = options.ignoredSchemaPaths ?? [];
  // Read before Ajv coerces the values in place.
  const forms = integerFormErrors(integers, params);
  if (paramsValidator && (!paramsValidator(params) || forms.length > 0)) {
    const error = toApiError([...forms, ...(paramsValidator.errors ?? [])], op.errCodes400);
    if (error) return error;
  }
  if (bodyValidator && !bodyValidator(body)) {
    return toApiError(bodyValidator.errors ?? [], op.errCodes400, ignored);
  }
  return undefined;
}
