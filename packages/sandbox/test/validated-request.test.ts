import { describe, expect, it } from "vitest";
import { HANDLER_CHECKED_COMBINATORS, SANDBOX_REQUIRED } from "../src/api/validated-request.js";
import { type JsonSchema, operations, spec } from "../src/spec/openapi.js";

/** A schema with its top-level $ref resolved. */
function resolved(schema: JsonSchema | undefined): JsonSchema | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== "string") return schema;
  return spec.components.schemas?.[ref.split("/").pop()!] as JsonSchema;
}

/** The body schema of an operation, its top-level $ref resolved. */
function bodySchemaOf(operationId: string): JsonSchema | undefined {
  return resolved(operations.find((op) => op.operationId === operationId)?.bodySchema);
}

/**
 * The schemas whose keywords apply at the top of an operation's body: the body schema and, through `allOf`, the
 * schemas it extends (the remittance quotation body is the payout quotation body plus two members). Ajv reports a
 * referenced schema's errors from that schema's root, so `#/oneOf` names the combinator of any of them.
 */
function topLevelSchemasOf(operationId: string): JsonSchema[] {
  const out: JsonSchema[] = [];
  const visit = (schema: JsonSchema | undefined) => {
    if (!schema) return;
    out.push(schema);
    for (const member of (schema.allOf as JsonSchema[] | undefined) ?? []) visit(resolved(member));
  };
  visit(bodySchemaOf(operationId));
  return out;
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
      const holders = topLevelSchemasOf(operationId).filter((schema) => keyword in schema);
      expect(holders, `${operationId} ${path}`).toHaveLength(1);
    }
  });
});
