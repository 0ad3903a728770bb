// zod/literals.ts: enum and const.
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "@exchange-kit/spec-tools/json-schema";
import { zodOf } from "./support.ts";

describe("enum and const", () => {
  it.each<{ behaviour: string; schema: JsonSchema; zod: string }>([
    { behaviour: "a string const is a literal", schema: { const: "a" }, zod: 'z.literal("a")' },
    { behaviour: "a number const is a literal", schema: { const: 3 }, zod: "z.literal(3)" },
    { behaviour: "a boolean const is a literal", schema: { const: false }, zod: "z.literal(false)" },
    { behaviour: "a null const is z.null()", schema: { const: null }, zod: "z.null()" },
    {
      behaviour: "const decides alone: the type's other keywords are not translated",
      schema: { type: "string", const: "a", minLength: 5 },
      zod: 'z.literal("a")',
    },
    { behaviour: "an enum of one member is a literal", schema: { enum: ["only"] }, zod: 'z.literal("only")' },
    { behaviour: "an enum of strings is z.enum", schema: { enum: ["a", "b"] }, zod: 'z.enum(["a", "b"])' },
    {
      behaviour: "an enum of mixed types is a union of literals, null as z.null()",
      schema: { enum: ["a", 1, null] },
      zod: 'z.union([z.literal("a"), z.literal(1), z.null()])',
    },
    {
      behaviour: "enum values of a type the schema does not admit are dropped",
      schema: { type: "string", enum: ["a", 1, "b"] },
      zod: 'z.enum(["a", "b"])',
    },
    {
      behaviour: "an integer enum value is a number",
      schema: { type: "number", enum: [1, 1.5] },
      zod: "z.union([z.literal(1), z.literal(1.5)])",
    },
    {
      behaviour: "an enum left empty by its type admits nothing",
      schema: { type: "string", enum: [1, 2] },
      zod: "z.never()",
    },
    {
      behaviour: "nullable adds null to the enum",
      schema: { type: "string", enum: ["a", "b"], nullable: true },
      zod: 'z.union([z.literal("a"), z.literal("b"), z.null()])',
    },
    {
      behaviour: "a long enum puts one value a line",
      schema: {
        enum: ["INSUFFICIENT_FUNDS", "ACCOUNT_CLOSED", "INVALID_ACCOUNT", "LIMIT_EXCEEDED", "OTHER_REASON", "NONE"],
      },
      zod: 'z.enum([\n  "INSUFFICIENT_FUNDS",\n  "ACCOUNT_CLOSED",\n  "INVALID_ACCOUNT",\n  "LIMIT_EXCEEDED",\n  "OTHER_REASON",\n  "NONE",\n])',
    },
  ])("$behaviour", ({ schema, zod }) => {
    expect(zodOf(schema)).toBe(zod);
  });

  it("refuses object and array values, which a literal cannot state", () => {
    expect(() => zodOf({ enum: [{ a: 1 }] })).toThrow(/#: object or array values in enum\/const are not supported/);
    expect(() => zodOf({ const: [1] })).toThrow(/not supported/);
  });
});
