// zod/unions.ts: oneOf and anyOf, discriminated or not.
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "@exchange-kit/spec-tools/json-schema";
import { translate, zodOf } from "./support.ts";

const event = (kind: string, extra: Record<string, JsonSchema> = {}): JsonSchema => ({
  type: "object",
  required: ["kind"],
  properties: { kind: { const: kind }, ...extra },
});
const components: Record<string, JsonSchema> = {
  X: event("x", { x: { type: "integer" } }),
  Y: event("y", { y: { type: "string" } }),
};
const X = { $ref: "#/components/schemas/X" };
const Y = { $ref: "#/components/schemas/Y" };

describe("oneOf and anyOf", () => {
  it.each<{ behaviour: string; schema: JsonSchema; zod: string; helpers: string[] }>([
    {
      behaviour: "one member is that member",
      schema: { anyOf: [{ type: "string" }] },
      zod: "z.string()",
      helpers: [],
    },
    {
      behaviour: "a oneOf of members with no type in common is a plain union",
      schema: { oneOf: [{ type: "string" }, { type: "integer" }, { type: "null" }] },
      zod: "z.union([z.string(), z.int(), z.null()])",
      helpers: [],
    },
    {
      behaviour: "a oneOf whose members may overlap checks that exactly one matches",
      schema: {
        oneOf: [
          { type: "string", minLength: 3 },
          { type: "string", maxLength: 3 },
        ],
      },
      zod: "oneOf([z.string().min(3), z.string().max(3)])",
      helpers: ["oneOf"],
    },
    {
      behaviour: "an integer member overlaps a number member",
      schema: { oneOf: [{ type: "integer" }, { type: "number" }] },
      zod: "oneOf([z.int(), z.number()])",
      helpers: ["oneOf"],
    },
    {
      behaviour: "a oneOf with a member of unknown type may overlap",
      schema: { oneOf: [{ type: "string" }, {}] },
      zod: "oneOf([z.string(), z.unknown()])",
      helpers: ["oneOf"],
    },
    {
      behaviour: "an anyOf whose members overlap is a plain union",
      schema: {
        anyOf: [
          { type: "string", minLength: 3 },
          { type: "string", maxLength: 3 },
        ],
      },
      zod: "z.union([z.string().min(3), z.string().max(3)])",
      helpers: [],
    },
    {
      behaviour: "members told apart by a property are a discriminated union",
      schema: { anyOf: [X, Y] },
      zod: 'z.discriminatedUnion("kind", [XSchema, YSchema])',
      helpers: [],
    },
    {
      behaviour: "a oneOf pinned apart needs no exactly-one check",
      schema: { oneOf: [X, Y] },
      zod: 'z.discriminatedUnion("kind", [XSchema, YSchema])',
      helpers: [],
    },
    {
      behaviour: "an OpenAPI discriminator with a mapping that agrees is a discriminated union",
      schema: {
        oneOf: [X, Y],
        discriminator: { propertyName: "kind", mapping: { x: "#/components/schemas/X", y: "Y" } },
      },
      zod: 'z.discriminatedUnion("kind", [XSchema, YSchema])',
      helpers: [],
    },
    {
      behaviour: "members pinned apart are a plain union when one is not a plain object",
      schema: {
        oneOf: [X, { type: ["object", "null"], required: ["kind"], properties: { kind: { const: "n" } } }],
      },
      zod: 'z.union([XSchema, z.looseObject({ kind: z.literal("n") }).nullable()])',
      helpers: [],
    },
    {
      behaviour: "a property pinned by enums tells members apart",
      schema: {
        anyOf: [
          { type: "object", required: ["k"], properties: { k: { enum: ["a", "b"] } } },
          { type: "object", required: ["k"], properties: { k: { enum: ["c"] } } },
        ],
      },
      zod:
        "z.discriminatedUnion(\n" +
        '  "k",\n' +
        '  [z.looseObject({ k: z.enum(["a", "b"]) }), z.looseObject({ k: z.literal("c") })],\n' +
        ")",
      helpers: [],
    },
    {
      behaviour: "the parent's own keywords are distributed into each member",
      schema: {
        type: "object",
        properties: { a: { type: "string" }, b: { type: "string" } },
        oneOf: [{ required: ["a"] }, { required: ["b"] }],
      },
      zod:
        "oneOf([\n" +
        "  z.looseObject({ a: z.string(), b: z.string().optional() }),\n" +
        "  z.looseObject({ a: z.string().optional(), b: z.string() }),\n" +
        "])",
      helpers: ["oneOf"],
    },
    {
      behaviour: "when a member does not merge with the parent, the parent is intersected with the union",
      schema: {
        type: "object",
        properties: { a: { type: "string" } },
        additionalProperties: false,
        anyOf: [{ required: ["a"] }, { properties: { b: {} }, required: ["b"] }],
      },
      zod:
        "allOf(z.strictObject({ a: z.string().optional() }), " +
        "z.union([z.looseObject({ a: z.unknown() }), z.looseObject({ b: z.unknown() })]))",
      helpers: ["allOf"],
    },
  ])("$behaviour", ({ schema, zod, helpers }) => {
    expect(translate(schema, components)).toEqual({ code: zod, helpers });
  });

  it("refuses a discriminator that does not tell the members apart", () => {
    expect(() => zodOf({ oneOf: [X, X], discriminator: { propertyName: "kind" } }, components)).toThrow(
      '#: discriminator "kind" does not tell the oneOf members apart',
    );
    expect(() => zodOf({ oneOf: [X, Y], discriminator: { propertyName: "x" } }, components)).toThrow(
      /discriminator "x"/,
    );
  });

  it("refuses a discriminator mapping that sends a value to another member", () => {
    const schema: JsonSchema = {
      oneOf: [X, Y],
      discriminator: { propertyName: "kind", mapping: { x: "#/components/schemas/Y" } },
    };
    expect(() => zodOf(schema, components)).toThrow("#: discriminator mapping x -> #/components/schemas/Y disagrees");
  });

  it("refuses a discriminator mapping with a value no member takes", () => {
    const schema: JsonSchema = { oneOf: [X, Y], discriminator: { propertyName: "kind", mapping: { z: "X" } } };
    expect(() => zodOf(schema, components)).toThrow("discriminator mapping z -> X disagrees with the members");
  });
});
