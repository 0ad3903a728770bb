// The published spec marks as `required` only what the interface document requires; where the sandbox needs
// more, a schema lists the members in `x-sandbox-required` (docs/gaps.md, "Sandbox requirements"). The sandbox
// folds that list into `required` once, when it loads the spec, so a missing member answers REQ_FIELD_MISSING.

/** The document with every `x-sandbox-required` list folded into its schema's `required` (in place). */
export function foldSandboxRequired<T>(document: T): T {
  const seen = new Set<object>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const schema = node as Record<string, unknown>;
    const extra = schema["x-sandbox-required"];
    if (Array.isArray(extra) && extra.length > 0) {
      const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
      schema.required = [...required, ...extra.filter((name) => !required.includes(name))];
    }
    for (const value of Object.values(schema)) visit(value);
  };
  visit(document);
  return document;
}
