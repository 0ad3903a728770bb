/**
 * exchange-kit/sandbox-required (decorator, bundle time only)
 *
 * The public spec marks as `required` only what the interface document requires; where the sandbox needs more,
 * a schema lists the members in `x-sandbox-required`. This decorator folds that list into `required`, so the
 * sandbox's own bundle (packages/sandbox/src/generated/spec.json, built with openapi/sandbox.redocly.yaml)
 * validates them and answers a missing one with REQ_FIELD_MISSING. The public bundle and the docs never run it.
 */
export function SandboxRequired() {
  return {
    Schema: {
      leave(schema) {
        const extra = schema["x-sandbox-required"];
        if (!Array.isArray(extra) || extra.length === 0) return;
        const required = Array.isArray(schema.required) ? schema.required : [];
        schema.required = [...required, ...extra.filter((name) => !required.includes(name))];
      },
    },
  };
}
