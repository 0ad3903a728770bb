// Redocly CLI plugin with the spec's own lint rules (see CONVENTIONS.md). Registered in the root redocly.yaml:
//   plugins: [./openapi/rules/plugin.js]
//   rules: { exchange-kit/<rule>: { severity: error, ...options } }
// Its decorators change a bundle and are switched on only by the configs that need them
// (openapi/sandbox.redocly.yaml for the sandbox's bundle; the root redocly.yaml adds the code samples to the
// reference and the public bundle).
import { ErrCodeEnum, ErrorEnvelope, SuccessEnvelope } from "./envelopes.js";
import { OperationConventions } from "./operation-conventions.js";
import { PropertyDescription } from "./property-description.js";
import { CodeSamples } from "../decorators/code-samples.js";
import { SandboxRequired } from "../decorators/sandbox-required.js";

export const rules = {
  "operation-conventions": OperationConventions,
  "success-envelope": SuccessEnvelope,
  "error-envelope": ErrorEnvelope,
  "property-description": PropertyDescription,
  "err-code-enum": ErrCodeEnum,
};

export const decorators = {
  "sandbox-required": SandboxRequired,
  "code-samples": CodeSamples,
};

export default function exchangeKitPlugin() {
  return {
    id: "exchange-kit",
    rules: { oas3: rules },
    decorators: { oas3: decorators },
  };
}
