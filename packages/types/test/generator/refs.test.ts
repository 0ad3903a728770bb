// zod/refs.ts: $ref, component names and declarations, cycles.
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "@exchange-kit/spec-tools/json-schema";
import { declarationsOf, zodOf } from "./support.ts";

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

describe("$ref", () => {
  it.each<{ behaviour: string; schema: JsonSchema; zod: string }>([
    { behaviour: "a reference is the component's schema by name", schema: ref("Str"), zod: "StrSchema" },
    {
      behaviour: "annotations next to a reference change nothing",
      schema: { $ref: "#/components/schemas/Str", description: "why", example: "a" },
      zod: "StrSchema",
    },
    {
      behaviour: "assertions next to a reference are the conjunction of both",
      schema: { $ref: "#/components/schemas/Str", maxLength: 3 },
      zod: "z.string().min(1).max(3)",
    },
    {
      behaviour: "a component name that is not an identifier is PascalCased",
      schema: ref("bank-account"),
      zod: "BankAccountSchema",
    },
    {
      behaviour: "a component name that is escaped in the pointer is decoded",
      schema: { $ref: "#/components/schemas/a~1b" },
      zod: "ABSchema",
    },
    {
      behaviour: "a component whose alias is a name the package reserves gets the suffix Base",
      schema: ref("WebhookEvent"),
      zod: "WebhookEventBaseSchema",
    },
  ])("$behaviour", ({ schema, zod }) => {
    const components: Record<string, JsonSchema> = {
      Str: { type: "string", minLength: 1 },
      "bank-account": { type: "object" },
      "a/b": { type: "boolean" },
      WebhookEvent: { type: "object" },
    };
    expect(zodOf(schema, components)).toBe(zod);
  });

  it("declares a component after the components it references", () => {
    expect(declarationsOf({ A: { type: "array", items: ref("B") }, B: { type: "string" } })).toEqual([
      "/**\n * The B component.\n */\nexport const BSchema = z.string();",
      "/**\n * The A component.\n */\nexport const ASchema = z.array(BSchema);",
    ]);
  });

  it("documents a declaration with the component's title (when it is not the name) and description", () => {
    expect(
      declarationsOf({
        Amount: { type: "string", title: "A decimal amount", description: "Two decimals.\nNever a number." },
        Same: { type: "string", title: "Same" },
      }),
    ).toEqual([
      "/**\n * A decimal amount\n *\n * Two decimals.\n * Never a number.\n */\nexport const AmountSchema = z.string();",
      "/**\n * The Same component.\n */\nexport const SameSchema = z.string();",
    ]);
  });

  it("references a component back into its cycle lazily, and annotates the component", () => {
    const node: JsonSchema = { type: "object", properties: { children: { type: "array", items: ref("Node") } } };
    expect(declarationsOf({ Node: node })).toEqual([
      "/**\n * The Node component.\n */\n" +
        "export const NodeSchema: z.ZodType<unknown> = z.looseObject({ children: z.array(z.lazy(() => NodeSchema)).optional() });",
    ]);
  });

  it("does not use a reference into a cycle, or a component annotated for one, as a discriminated union option", () => {
    const tree: Record<string, JsonSchema> = {
      Leaf: { type: "object", required: ["kind"], properties: { kind: { const: "leaf" } } },
      Branch: {
        type: "object",
        required: ["kind"],
        properties: { kind: { const: "branch" }, children: { type: "array", items: ref("Tree") } },
      },
      Tree: { oneOf: [ref("Leaf"), ref("Branch")] },
      Other: { oneOf: [ref("Leaf"), ref("Branch")] },
    };
    expect(declarationsOf(tree).map((d) => d.split("\n").at(-1))).toEqual([
      'export const LeafSchema = z.looseObject({ kind: z.literal("leaf") });',
      "export const TreeSchema = z.union([LeafSchema, z.lazy(() => BranchSchema)]);",
      'export const BranchSchema: z.ZodType<unknown> = z.looseObject({ kind: z.literal("branch"), children: z.array(TreeSchema).optional() });',
      "export const OtherSchema = z.union([LeafSchema, BranchSchema]);",
    ]);
  });

  it("refuses a reference to a component that does not exist", () => {
    expect(() => zodOf(ref("Missing"))).toThrow("Reference to unknown component schema Missing");
  });

  it("refuses a reference to anything but a component schema", () => {
    expect(() => zodOf({ $ref: "#/components/responses/Error" })).toThrow(
      "Only references to components.schemas are supported, got #/components/responses/Error",
    );
  });
});
