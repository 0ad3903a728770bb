// zod/composition.ts: allOf (folded by lib/merge.ts, or intersected), not, if/then/else.
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "@exchange-kit/spec-tools/json-schema";
import { translate, zodOf } from "./support.ts";

const base: JsonSchema = {
  type: "object",
  required: ["id"],
  properties: { id: { type: "string" } },
};

describe("allOf", () => {
  it.each<{ behaviour: string; schema: JsonSchema; zod: string }>([
    {
      behaviour: "object members fold into one object with every property",
      schema: {
        allOf: [
          { type: "object", required: ["a"], properties: { a: { type: "string" } } },
          { properties: { b: { type: "integer" } } },
        ],
      },
      zod: "z.looseObject({ a: z.string(), b: z.int().optional() })",
    },
    {
      behaviour: "a property two members declare gets both constraints",
      schema: {
        allOf: [
          { type: "object", properties: { n: { type: "integer", minimum: 1 } } },
          { properties: { n: { maximum: 5 } } },
        ],
      },
      zod: "z.looseObject({ n: z.int().gte(1).lte(5).optional() })",
    },
    {
      behaviour: "a property required by one member and declared by another is required",
      schema: { allOf: [{ type: "object", properties: { a: { type: "string" } } }, { required: ["a"] }] },
      zod: "z.looseObject({ a: z.string() })",
    },
    {
      behaviour: "members come first, then the schema's own keywords",
      schema: {
        type: "object",
        properties: { own: { type: "boolean" } },
        allOf: [{ properties: { inherited: { type: "boolean" } } }],
      },
      zod: "z.looseObject({ inherited: z.boolean().optional(), own: z.boolean().optional() })",
    },
    {
      behaviour: "integer and number fold into integer",
      schema: { allOf: [{ type: "number", minimum: 0 }, { type: "integer" }] },
      zod: "z.int().gte(0)",
    },
    {
      behaviour: "two enums fold into the values both list",
      schema: { allOf: [{ enum: ["a", "b", "c"] }, { enum: ["b", "c", "d"] }] },
      zod: 'z.enum(["b", "c"])',
    },
    {
      behaviour: "a const folds into an enum that lists it",
      schema: { allOf: [{ type: "string", enum: ["a", "b"] }, { const: "a" }] },
      zod: 'z.literal("a")',
    },
    {
      behaviour: "the tighter bound of each side wins",
      schema: {
        allOf: [
          { type: "string", minLength: 1, maxLength: 10 },
          { minLength: 3, maxLength: 20 },
        ],
      },
      zod: "z.string().min(3).max(10)",
    },
    {
      behaviour: "a member that is a reference alone stays a reference",
      schema: { allOf: [{ $ref: "#/components/schemas/Base" }] },
      zod: "BaseSchema",
    },
    {
      behaviour: "two references to the same component stay that reference",
      schema: {
        allOf: [{ $ref: "#/components/schemas/Base" }, { $ref: "#/components/schemas/Base", description: "d" }],
      },
      zod: "BaseSchema",
    },
    {
      behaviour: "a reference folded with another member is inlined",
      schema: { allOf: [{ $ref: "#/components/schemas/Base" }, { properties: { extra: { type: "integer" } } }] },
      zod: "z.looseObject({ id: z.string(), extra: z.int().optional() })",
    },
  ])("$behaviour", ({ schema, zod }) => {
    expect(zodOf(schema, { Base: base })).toBe(zod);
  });

  it.each<{ behaviour: string; schema: JsonSchema; zod: string }>([
    {
      behaviour: "two different patterns do not fold: both are checked",
      schema: {
        allOf: [
          { type: "string", pattern: "^a" },
          { type: "string", pattern: "b$" },
        ],
      },
      zod: 'allOf(z.string().regex(new RegExp("^a", "u")), z.string().regex(new RegExp("b$", "u")))',
    },
    {
      behaviour: "a closed object does not take another member's properties",
      schema: {
        allOf: [
          { type: "object", properties: { a: {} }, additionalProperties: false },
          { type: "object", properties: { b: {} } },
        ],
      },
      zod: "allOf(z.strictObject({ a: z.unknown().optional() }), z.looseObject({ b: z.unknown().optional() }))",
    },
    {
      behaviour: "types with nothing in common do not fold (nothing validates)",
      schema: { allOf: [{ type: "string" }, { type: "integer" }] },
      zod: "allOf(z.string(), z.int())",
    },
    {
      behaviour: "every member that does not fold is intersected, left to right",
      schema: { allOf: [{ const: 1 }, { const: 2 }, { const: 3 }] },
      zod: "allOf(allOf(z.literal(1), z.literal(2)), z.literal(3))",
    },
    {
      behaviour: "a member left apart is typed by the schema's own type",
      schema: { type: ["string", "null"], allOf: [{ pattern: "^a" }, { pattern: "b$" }] },
      zod: 'allOf(z.string().regex(new RegExp("^a", "u")).nullable(), z.string().regex(new RegExp("b$", "u")).nullable())',
    },
    {
      behaviour: "false as a member is kept apart and admits nothing",
      schema: { allOf: [{ type: "string" }, false] },
      zod: "allOf(z.string(), z.never())",
    },
  ])("$behaviour", ({ schema, zod }) => {
    expect(translate(schema)).toEqual({ code: zod, helpers: ["allOf"] });
  });
});

describe("not and if/then/else", () => {
  it.each<{ behaviour: string; schema: JsonSchema; zod: string; helpers: string[] }>([
    {
      behaviour: "not is a check that the subschema does not match",
      schema: { type: "string", not: { enum: ["forbidden"] } },
      zod: 'z.string().check(not(z.literal("forbidden")))',
      helpers: ["not"],
    },
    {
      behaviour: "if/then is a conditional check without else",
      schema: {
        type: "string",
        if: { minLength: 3 },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema if/then/else, never awaited.
        then: { maxLength: 5 },
      },
      zod: "z.string().check(conditional(z.string().min(3), z.string().max(5), undefined))",
      helpers: ["conditional"],
    },
    {
      behaviour: "if/else is a conditional check without then",
      schema: { type: "integer", if: { minimum: 0 }, else: { multipleOf: 2 } },
      zod: "z.int().check(conditional(z.int().gte(0), undefined, z.int().multipleOf(2)))",
      helpers: ["conditional"],
    },
    {
      behaviour: "if without then or else checks nothing",
      schema: { type: "string", if: { minLength: 3 } },
      zod: "z.string()",
      helpers: [],
    },
    {
      behaviour: "a long conditional puts one subschema a line",
      schema: {
        type: "object",
        if: { required: ["kind"], properties: { kind: { const: "a" } } },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema if/then/else, never awaited.
        then: { required: ["a"] },
        else: { required: ["b"] },
      },
      zod:
        "z.looseObject({}).check(conditional(\n" +
        '  z.looseObject({ kind: z.literal("a") }),\n' +
        "  z.looseObject({ a: z.unknown() }),\n" +
        "  z.looseObject({ b: z.unknown() }),\n" +
        "))",
      helpers: ["conditional"],
    },
    {
      behaviour: "the checks follow the type's expression: not, dependentRequired, then if/then/else",
      schema: {
        type: "object",
        not: { required: ["x"] },
        dependentRequired: { a: ["b"] },
        if: { required: ["a"] },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema if/then/else, never awaited.
        then: { required: ["c"] },
      },
      zod:
        "z.looseObject({}).check(not(z.looseObject({ x: z.unknown() })))" +
        '.check(dependentRequired({"a":["b"]}))' +
        ".check(conditional(z.looseObject({ a: z.unknown() }), z.looseObject({ c: z.unknown() }), undefined))",
      helpers: ["conditional", "dependentRequired", "not"],
    },
  ])("$behaviour", ({ schema, zod, helpers }) => {
    expect(translate(schema)).toEqual({ code: zod, helpers });
  });
});
