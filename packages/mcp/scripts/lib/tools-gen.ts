// The source of src/generated/tools.ts: one MCP tool definition per operation of the spec. A tool's input is the
// operation's parameters (by name) and its body (as `body`), with the schemas the spec states, unchanged: the
// components they reference travel with them in `$defs` (references rewritten from #/components/schemas/ to
// #/$defs/), so a client's validator and the model read exactly the spec's rules.
import { isSchemaObject, type JsonSchema, type SchemaObject } from "@exchange-kit/spec-tools/json-schema";
import {
  deref,
  errCodesOf,
  jsonMedia,
  listOperations,
  type OpenApiSpec,
  type Operation,
  type Parameter,
  schemaRefName,
} from "@exchange-kit/spec-tools/spec";

/** One generated tool: what tools/list shows, and what the server needs to call the operation. */
export interface ToolSource {
  name: string;
  title: string;
  description: string;
  method: string;
  path: string;
  tag: string;
  idempotency: string;
  pathParams: string[];
  queryParams: string[];
  hasBody: boolean;
  errCodes: string[];
  inputSchema: SchemaObject;
  /** The input the sandbox's spec takes, where it differs from `inputSchema` (e.g. an http:// loopback webhook URL). */
  sandboxInputSchema?: SchemaObject;
  outputSchema: SchemaObject;
}

/** A deep copy of `schema` with component references pointing into `$defs`, each name added to `used`. */
function relocate(schema: unknown, used: Set<string>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => relocate(item, used));
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    const name = key === "$ref" ? schemaRefName(value) : undefined;
    if (name !== undefined) {
      used.add(name);
      out.$ref = `#/$defs/${name}`;
    } else out[key] = relocate(value, used);
  }
  return out;
}

/** `$defs` holding every component `used` names, and the components those reference in turn. */
function definitions(spec: OpenApiSpec, used: Set<string>): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  const pending = [...used];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (name in defs) continue;
    const found = new Set<string>();
    defs[name] = relocate(spec.components?.schemas?.[name], found);
    for (const next of found) if (!(next in defs)) pending.push(next);
  }
  return Object.fromEntries(Object.entries(defs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The operation's parameters, each followed through its `$ref`. */
function parametersOf(spec: OpenApiSpec, operation: Operation): Parameter[] {
  return (operation.parameters ?? []).map((p) => deref(spec, p)!).filter((p) => p.in === "path" || p.in === "query");
}

/** A parameter's schema, with the parameter's description where the schema has none of its own. */
function parameterSchema(parameter: Parameter & { description?: string }): JsonSchema {
  const schema = parameter.schema ?? {};
  if (!isSchemaObject(schema) || parameter.description === undefined || schema.description !== undefined) return schema;
  return { description: parameter.description, ...schema };
}

/** The tool's inputSchema: path and query parameters by name, the body as `body`, nothing else. */
export function inputSchemaOf(spec: OpenApiSpec, operation: Operation): SchemaObject {
  const used = new Set<string>();
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const parameter of parametersOf(spec, operation)) {
    properties[parameter.name] = relocate(parameterSchema(parameter), used);
    if (parameter.required) required.push(parameter.name);
  }
  const body = deref(spec, operation.requestBody);
  const bodySchema = jsonMedia(spec, operation.requestBody)?.schema;
  if (bodySchema !== undefined) {
    properties.body = relocate(bodySchema, used);
    if (body?.required) required.push("body");
  }
  const schema: SchemaObject = { type: "object", properties: properties as SchemaObject["properties"] };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = false;
  if (used.size > 0) schema.$defs = definitions(spec, used);
  return schema;
}

/** The `data` member of the operation's success envelope (the allOf member after SuccessEnvelope). */
export function successDataSchema(spec: OpenApiSpec, operation: Operation): JsonSchema | undefined {
  const schema = deref(spec, jsonMedia(spec, operation.responses?.["200"])?.schema);
  for (const member of isSchemaObject(schema) ? (schema.allOf ?? []) : []) {
    const data = isSchemaObject(member) ? member.properties?.data : undefined;
    if (data !== undefined) return data;
  }
  return undefined;
}

const DELETED_EARLIER: SchemaObject = {
  type: "object",
  description: "An earlier attempt of this call deleted the record; its answer was lost.",
  properties: { deletedByEarlierAttempt: { const: true }, attempts: { type: "integer", minimum: 1 } },
  required: ["deletedByEarlierAttempt", "attempts"],
};

/** Whether `schema` (a component reference followed) only admits objects. */
function isObjectSchema(spec: OpenApiSpec, schema: JsonSchema): boolean {
  const target = deref(spec, schema);
  if (!isSchemaObject(target)) return false;
  if (target.type === "object" || target.properties !== undefined) return true;
  if (target.allOf?.some((member) => isObjectSchema(spec, member))) return true;
  const members = target.oneOf ?? target.anyOf;
  return members?.every((member) => isObjectSchema(spec, member)) === true;
}

/**
 * The tool's outputSchema: the answer's `data` as the spec states it. MCP wants an object there, so a `data` that
 * can be something else (a list without paging, null) is given as `{ data }`, and `wrapped` says so.
 */
export function outputSchemaOf(spec: OpenApiSpec, operation: Operation): { schema: SchemaObject; wrapped: boolean } {
  const data = successDataSchema(spec, operation) ?? {};
  const used = new Set<string>();
  const relocated = relocate(data, used) as SchemaObject;
  const wrapped = !isObjectSchema(spec, data);
  let schema: SchemaObject = wrapped
    ? { type: "object", properties: { data: relocated }, required: ["data"] }
    : { type: "object", ...relocated };
  // The client resolves a safe-delete whose earlier attempt deleted the record to this instead of the record,
  // which was lost with that attempt's answer (see the client README, Retries).
  if (operation["x-idempotency"] === "safe-delete") schema = { type: "object", anyOf: [schema, DELETED_EARLIER] };
  if (used.size > 0) schema.$defs = definitions(spec, used);
  return { schema, wrapped };
}

/** What an err_code's handling class asks of the caller, per the spec's ErrCode description. */
function errCodeLine(codes: readonly string[]): string {
  if (codes.length === 0) return "";
  return (
    `\n\nerr_code on 400: ${codes.join(", ")}. A tool error names the err_code and its action: ` +
    "fix (change the input; sending it again as it is gives the same answer), retry (the server's client already " +
    "retried what was safe to), escalate (stop and tell a person: RISK_AML_FAILED, a recurring 5xx)."
  );
}

/** The tool's description: summary, the spec's description, and the err_codes with what each asks. */
function descriptionOf(operation: Operation, codes: readonly string[]): string {
  return `${operation.summary ?? ""}\n\n${(operation.description ?? "").trim()}${errCodeLine(codes)}`;
}

/**
 * Every operation of the spec as a tool source, in spec order.
 *
 * @example
 * toolSources(spec).find((t) => t.name === "getCustomer")?.inputSchema.required; // ["customer_id"]
 */
export function toolSources(spec: OpenApiSpec): Array<ToolSource & { wrapped: boolean }> {
  return listOperations(spec).map(({ key, method, operation }) => {
    const parameters = parametersOf(spec, operation);
    const codes = errCodesOf(spec, operation);
    const output = outputSchemaOf(spec, operation);
    return {
      name: operation.operationId!,
      title: operation.summary ?? operation.operationId!,
      description: descriptionOf(operation, codes),
      method: method.toUpperCase(),
      path: key,
      tag: operation.tags?.[0] ?? "",
      idempotency: String(operation["x-idempotency"]),
      pathParams: parameters.filter((p) => p.in === "path").map((p) => p.name),
      queryParams: parameters.filter((p) => p.in === "query").map((p) => p.name),
      hasBody: jsonMedia(spec, operation.requestBody)?.schema !== undefined,
      errCodes: codes,
      inputSchema: inputSchemaOf(spec, operation),
      outputSchema: output.schema,
      wrapped: output.wrapped,
    };
  });
}

/**
 * The tools with `sandboxInputSchema` set where the same operation's tool from the sandbox's spec takes other
 * input; the rest of a sandbox tool (description, output) is the published one's.
 *
 * @example
 * withSandboxInputs(toolSources(spec), toolSources(sandboxSpec)).find((t) => t.name === "registerWebhook")?.sandboxInputSchema;
 */
export function withSandboxInputs<T extends ToolSource>(tools: T[], sandboxTools: readonly ToolSource[]): T[] {
  const sandboxInputs = new Map(sandboxTools.map((tool) => [tool.name, tool.inputSchema]));
  return tools.map((tool) => {
    const sandboxInput = sandboxInputs.get(tool.name);
    if (sandboxInput === undefined || JSON.stringify(sandboxInput) === JSON.stringify(tool.inputSchema)) return tool;
    return { ...tool, sandboxInputSchema: sandboxInput };
  });
}
