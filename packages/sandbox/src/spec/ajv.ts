// Two Ajv instances over the bundled spec: one that coerces (path and query values arrive as strings) and one
// that does not (JSON bodies and responses must have the declared types as sent). Both are created on first use
// and shared by every sandbox in the process, so compiling the spec's schemas is paid once.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { spec, type JsonSchema } from "./openapi.js";

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
// ajv-formats is CommonJS: under NodeNext the default import is module.exports, which also carries `.default`.
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  (addFormatsModule as unknown as FormatsPlugin);

const SPEC_ID = "exchange-spec";

function createAjv(coerceTypes: boolean): Ajv2020 {
  // strict: false because OpenAPI adds keywords JSON Schema does not know (discriminator, example).
  const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes, useDefaults: false });
  addFormats(ajv);
  ajv.addSchema({ $id: SPEC_ID, components: spec.components });
  return ajv;
}

let plain: Ajv2020 | undefined;
let coercing: Ajv2020 | undefined;

/** Points the spec's internal `#/components/...` references at the registered spec document. */
export function anchorRefs<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => anchorRefs(v)) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      out[key] =
        key === "$ref" && typeof child === "string" && child.startsWith("#/") ? SPEC_ID + child : anchorRefs(child);
    }
    return out as T;
  }
  return value;
}

/** Compiles a schema fragment of the spec (its refs are resolved against the whole spec). */
export function compile(schema: JsonSchema, options: { coerce?: boolean } = {}): ValidateFunction {
  const ajv = options.coerce ? (coercing ??= createAjv(true)) : (plain ??= createAjv(false));
  return ajv.compile(anchorRefs(schema));
}

export type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
