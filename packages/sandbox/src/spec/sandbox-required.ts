// The published spec marks as `required` only what the interface document requires; where the sandbox needs
// more, a schema lists the members in `x-sandbox-required` (docs/gaps.md, "Sandbox requirements"). The sandbox
// folds that list into `required` once, when it loads the spec, so a missing member answers REQ_FIELD_MISSING.
// The fold is @exchange-kit/openapi's, so the mock's sandbox mode and the MCP server read the spec the same way.
export { foldSandboxRequired } from "@exchange-kit/openapi";
