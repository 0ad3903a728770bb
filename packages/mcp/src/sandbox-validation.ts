// The body check of an operation tool on a sandbox: the tool's `sandboxInputSchema` (the sandbox's spec, JSON
// Schema 2020-12, components in `$defs`) judged by Ajv's 2020 build, as the sandbox itself judges requests. The
// published path keeps the generated zod schemas; this module loads only when a sandbox tool sends a body.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { GeneratedTool } from "./tool-types.js";

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
// ajv-formats is CommonJS: under NodeNext the default import is module.exports, which also carries `.default`.
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  (addFormatsModule as unknown as FormatsPlugin);

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

/** An Ajv error's field, as the published path names them: `body.webhook_url`, `body.identifiers.vpa`. */
export function fieldOf(error: ErrorObject): string {
  const segments = error.instancePath
    .split("/")
    .slice(1)
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
  const missing =
    error.keyword === "required" ? (error.params as { missingProperty?: string }).missingProperty : undefined;
  return ["body", ...segments, ...(missing === undefined ? [] : [missing])].join(".");
}

/** Ajv's message for an error, with what it allows where that says more (`must match pattern "^https://"`). */
const messageOf = (error: ErrorObject) =>
  error.keyword === "required" ? "is required" : (error.message ?? error.keyword);

/**
 * The validator of a sandbox tool's body: the faults by field, empty when the body is valid.
 *
 * @example
 * sandboxBodyValidator(registerWebhook)({ webhook_url: "http://127.0.0.1:8787/hooks" }); // []
 */
export function sandboxBodyValidator(tool: GeneratedTool): (body: unknown) => Array<[string, string[]]> {
  const schema = tool.sandboxInputSchema;
  if (schema === undefined) throw new Error(`${tool.name} has no sandbox input schema`);
  let validate = compiled.get(tool.name);
  if (validate === undefined) {
    ajv ??= addFormats(new Ajv2020({ strict: false, allErrors: true }));
    const body = (schema.properties as Record<string, object>).body;
    validate = ajv.compile({ ...body, $defs: schema.$defs });
    compiled.set(tool.name, validate);
  }
  const check = validate;
  return (body) => {
    if (check(body)) return [];
    const found = new Map<string, string[]>();
    for (const error of check.errors ?? []) {
      const field = fieldOf(error);
      found.set(field, [...(found.get(field) ?? []), messageOf(error)]);
    }
    return [...found];
  };
}
