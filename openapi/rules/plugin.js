// Redocly CLI plugin with the spec's own lint rules (see CONVENTIONS.md). Registered in the root redocly.yaml:
//   plugins: [./openapi/rules/plugin.js]
//   rules: { exchange-kit/<rule>: { severity: error, ...options } }
// Its decorator changes a bundle and is switched on by the root redocly.yaml: it adds the code samples to the
// reference and the public bundle. (The sandbox's rules are not in this spec: overlays/sandbox.yaml adds them to
// the sandbox's own copy, see CONVENTIONS.md.)
import { ErrCodeEnum, ErrorEnvelope, SuccessEnvelope } from "./envelopes.js";
import { OperationConventions } from "./operation-conventions.js";
import { PropertyDescription } from "./property-description.js";
import { CodeSamples } from "../decorators/code-samples.js";

export const rules = {
  "operation-conventions": OperationConventions,
  "success-envelope": SuccessEnvelope,
  "error-envelope": ErrorEnvelope,
  "property-description": PropertyDescription,
  "err-code-enum": ErrCodeEnum,
};

export const decorators = {
  "code-samples": CodeSamples,
};

export default function exchangeKitPlugin() {
  return {
    id: "exchange-kit",
    rules: { oas3: rules },
    decorators: { oas3: decorators },
  };
}
