// zod/types.ts: `type`, type arrays and null, `nullable`, boolean schemas and the type a schema gets without one.
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "@exchange-kit/spec-tools/json-schema";
import { zodOf } from "./support.ts";

describe("types", () => {
  it.each<{ behaviour: string; schema: JsonSchema; zod: string }>([
    { behaviour: "true admits anything", schema: true, zod: "z.unknown()" },
    { behaviour: "false admits nothing", schema: false, zod: "z.never()" },
    { behaviour: "{} admits anything", schema: {}, zod: "z.unknown()" },
    {
      behaviour: "annotations and extensions alone admit anything",
      schema: { description: "d", title: "t", example: 1, "x-internal": true },
      zod: "z.unknown()",
    },
    { behaviour: "a boolean is z.boolean()", schema: { type: "boolean" }, zod: "z.boolean()" },
    { behaviour: "null is z.null()", schema: { type: "null" }, zod: "z.null()" },
    {
      behaviour: "one type with null is .nullable()",
      schema: { type: ["string", "null"], minLength: 2 },
      zod: "z.string().min(2).nullable()",
    },
    {
      behaviour: "OpenAPI 3.0's nullable is null added to the type",
      schema: { type: "integer", nullable: true },
      zod: "z.int().nullable()",
    },
    { behaviour: "nullable: false changes nothing", schema: { type: "integer", nullable: false }, zod: "z.int()" },
    {
      behaviour: "several types are a union, each with its own keywords",
      schema: { type: ["integer", "string"], minimum: 1, maxLength: 2 },
      zod: "z.union([z.int().gte(1), z.string().max(2)])",
    },
    {
      behaviour: "several types with null are a union ending in z.null()",
      schema: { type: ["boolean", "string", "null"] },
      zod: "z.union([z.boolean(), z.string(), z.null()])",
    },
    { behaviour: "a repeated type counts once", schema: { type: ["string", "string"] }, zod: "z.string()" },
    {
      behaviour: "a schema without type takes the type of the one keyword family it uses",
      schema: { properties: { a: { type: "string" } } },
      zod: "z.looseObject({ a: z.string().optional() })",
    },
    {
      behaviour: "keywords of two families leave the schema untyped (anything)",
      schema: { minLength: 1, minimum: 1 },
      zod: "z.unknown()",
    },
    {
      behaviour: "an annotation-only nullable schema admits anything",
      schema: { nullable: true, description: "d" },
      zod: "z.unknown()",
    },
  ])("$behaviour", ({ schema, zod }) => {
    expect(zodOf(schema)).toBe(zod);
  });

  it("types the subschema of an applicator by its parent's types", () => {
    expect(zodOf({ type: ["string", "null"], not: { maxLength: 0 } })).toBe(
      "z.string().nullable().check(not(z.string().max(0).nullable()))",
    );
  });

  it("refuses a type JSON Schema does not have", () => {
    expect(() => zodOf({ type: "date" } as unknown as JsonSchema)).toThrow('#: unknown type "date"');
  });

  it("refuses a keyword it does not understand, naming where it is", () => {
    expect(() => zodOf({ type: "object", properties: { a: { type: "array", prefixItems: [] } } })).toThrow(
      '#/properties/a: unsupported keyword "prefixItems"',
    );
  });

  it("refuses a schema that is neither an object nor a boolean", () => {
    expect(() => zodOf({ type: "array", items: 3 } as unknown as JsonSchema)).toThrow(
      "#/items: a schema must be an object or a boolean",
    );
  });
});
