import { describe, expect, it } from "vitest";
import { HANDLER_CHECKED_COMBINATORS, SANDBOX_REQUIRED } from "../src/api/validated-request.js";
import { type JsonSchema, operations, spec } from "../src/spec/openapi.js";

/** The body schema of an operation, its top-level $ref resolved. */
function bodySchemaOf(operationId: string): JsonSchema | undefined {
  const schema = operations.find((op) => op.operationId === operationId)?.bodySchema;
  const ref = schema?.$ref;
  if (typeof ref !== "string") return schema;
  return spec.components.schemas?.[ref.split("/").pop()!] as JsonSchema;
}

describe("the types handlers receive", () => {
  it("make required exactly the members each operation lists in x-sandbox-required", () => {
    const fromSpec: Record<string, unknown> = {};
    for (const op of operations) {
      const listed = bodySchemaOf(op.operationId)?.["x-sandbox-required"];
      if (Array.isArray(listed)) fromSpec[op.operationId] = listed;
    }
    expect(SANDBOX_REQUIRED).toEqual(fromSpec);
  });

  it("drop only combinators the operation's body schema has", () => {
    for (const [operationId, path] of Object.entries(HANDLER_CHECKED_COMBINATORS)) {
      const keyword = path.replace("#/", "");
      expect(bodySchemaOf(operationId), `${operationId} ${path}`).toHaveProperty(keyword);
    }
  });
});
