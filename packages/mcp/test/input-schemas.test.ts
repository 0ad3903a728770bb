// Each operation tool's inputSchema is the operation's parameters and body as the spec states them: compared, for
// every operation of the bundled spec, with every reference followed on both sides (the spec's #/components, the
// tool's #/$defs), so a keyword dropped, added or changed by the generator fails here.
import { readSpec } from "@exchange-kit/openapi";
import { deref, jsonMedia, listOperations, type Parameter, asOpenApiSpec } from "@exchange-kit/spec-tools/spec";
import { describe, expect, it } from "vitest";
import { generatedTools } from "../src/generated/tools.js";

const spec = asOpenApiSpec(readSpec());

/** `node` with every `$ref` replaced by its target, looked up by `resolve`; a cycle is cut at its reference. */
function inline(node: unknown, resolve: (ref: string) => unknown, trail: readonly string[] = []): unknown {
  if (Array.isArray(node)) return node.map((item) => inline(item, resolve, trail));
  if (node === null || typeof node !== "object") return node;
  const { $ref, ...rest } = node as Record<string, unknown>;
  const own = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, inline(v, resolve, trail)]));
  if (typeof $ref !== "string") return own;
  const name = $ref.split("/").pop()!;
  if (trail.includes(name)) return { cycle: name, ...own };
  return { ...own, target: inline(resolve($ref), resolve, [...trail, name]) };
}

const fromSpec = (node: unknown) => inline(node, (ref) => deref(spec, { $ref: ref }));

const operations = listOperations(spec);

it("there is one tool per operation, named by its operationId, in spec order", () => {
  expect(generatedTools.map((tool) => tool.name)).toEqual(operations.map((o) => o.operation.operationId));
  expect(generatedTools).toHaveLength(42);
});

describe.each(operations.map((o) => [o.operation.operationId!, o] as const))("%s", (name, { operation }) => {
  const tool = generatedTools.find((t) => t.name === name)!;
  const defs = tool.inputSchema.$defs as Record<string, unknown> | undefined;
  const fromTool = (node: unknown) => inline(node, (ref) => defs?.[ref.replace("#/$defs/", "")]);
  const properties = tool.inputSchema.properties as Record<string, unknown>;
  const parameters = (operation.parameters ?? []).map((p) => deref(spec, p) as Parameter & { description?: string });

  it("takes each parameter with the spec's schema, required where the spec requires it", () => {
    for (const parameter of parameters) {
      const { description, ...schema } = fromTool(properties[parameter.name]) as Record<string, unknown>;
      const expected = fromSpec(parameter.schema) as Record<string, unknown>;
      expect({ ...schema, description }).toEqual({
        ...expected,
        description: expected.description ?? parameter.description,
      });
      expect(((tool.inputSchema.required as string[]) ?? []).includes(parameter.name)).toBe(
        parameter.required === true,
      );
    }
  });

  it("takes the body as `body` with the spec's schema, and nothing else", () => {
    const body = jsonMedia(spec, operation.requestBody)?.schema;
    expect(fromTool(properties.body)).toEqual(fromSpec(body));
    const requiredBody = deref(spec, operation.requestBody)?.required === true;
    expect(((tool.inputSchema.required as string[]) ?? []).includes("body")).toBe(body !== undefined && requiredBody);
    expect(Object.keys(properties).sort()).toEqual(
      [...parameters.map((p) => p.name), ...(body === undefined ? [] : ["body"])].sort(),
    );
    expect(tool.inputSchema.additionalProperties).toBe(false);
  });
});
