// lib/merge.ts: the conjunction of two schemas as one schema (allOf folding), keyword by keyword.
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "@exchange-kit/spec-tools/json-schema";
import { foldAllOf, mergeSchemas } from "../../scripts/lib/merge.ts";
import { specWith } from "./support.ts";

const doc = specWith({
  Str: { type: "string", minLength: 1 },
  Obj: { type: "object", required: ["id"], properties: { id: { type: "string" } } },
});

describe("mergeSchemas", () => {
  it.each<{ behaviour: string; a: JsonSchema | undefined; b: JsonSchema | undefined; merged: JsonSchema | undefined }>([
    // trivial and boolean sides
    { behaviour: "{} and a schema give the schema", a: {}, b: { type: "string" }, merged: { type: "string" } },
    { behaviour: "true and true give {}", a: true, b: true, merged: {} },
    { behaviour: "a missing side and true give {}", a: undefined, b: true, merged: {} },
    {
      behaviour: "an annotation-only side gives the other side",
      a: { type: "string" },
      b: { description: "d" },
      merged: { type: "string" },
    },
    { behaviour: "false does not merge", a: false, b: { type: "string" }, merged: undefined },
    {
      behaviour: "a trivial side keeps the other side's reference",
      a: {},
      b: { $ref: "#/components/schemas/Str" },
      merged: { $ref: "#/components/schemas/Str" },
    },
    {
      behaviour: "two references to the same component give the reference",
      a: { $ref: "#/components/schemas/Str" },
      b: { $ref: "#/components/schemas/Str", description: "d" },
      merged: { $ref: "#/components/schemas/Str" },
    },
    {
      behaviour: "a reference merged with assertions is its target merged with them",
      a: { $ref: "#/components/schemas/Str" },
      b: { maxLength: 3 },
      merged: { type: "string", minLength: 1, maxLength: 3 },
    },
    // type
    { behaviour: "the same type stays", a: { type: "string" }, b: { type: "string" }, merged: { type: "string" } },
    {
      behaviour: "a type list narrows to the types both admit",
      a: { type: ["string", "null"] },
      b: { type: "string" },
      merged: { type: "string" },
    },
    {
      behaviour: "several types in common stay a list",
      a: { type: ["string", "null", "boolean"] },
      b: { type: ["null", "string"] },
      merged: { type: ["string", "null"] },
    },
    {
      behaviour: "number and integer give integer",
      a: { type: "number" },
      b: { type: "integer" },
      merged: { type: "integer" },
    },
    {
      behaviour: "types with nothing in common do not merge",
      a: { type: "string" },
      b: { type: "integer" },
      merged: undefined,
    },
    // objects
    {
      behaviour: "properties of both sides are kept, a's first",
      a: { properties: { a: { type: "string" } } },
      b: { properties: { b: { type: "integer" } } },
      merged: { properties: { a: { type: "string" }, b: { type: "integer" } } },
    },
    {
      behaviour: "a property both declare is the merge of both",
      a: { properties: { n: { type: "integer", minimum: 1 } } },
      b: { properties: { n: { maximum: 9 } } },
      merged: { properties: { n: { type: "integer", minimum: 1, maximum: 9 } } },
    },
    {
      behaviour: "a property both declare that does not merge is allOf of both",
      a: { properties: { s: { type: "string", pattern: "^a" } } },
      b: { properties: { s: { pattern: "b$" } } },
      merged: { properties: { s: { allOf: [{ type: "string", pattern: "^a" }, { pattern: "b$" }] } } },
    },
    {
      behaviour: "required lists are joined without repeats",
      a: { required: ["a", "b"] },
      b: { required: ["b", "c"] },
      merged: { required: ["a", "b", "c"] },
    },
    {
      behaviour: "additionalProperties: true yields to the other side",
      a: { additionalProperties: true },
      b: { additionalProperties: { type: "string" } },
      merged: { additionalProperties: { type: "string" } },
    },
    {
      behaviour: "two additionalProperties constraints do not merge, even equal ones",
      a: { additionalProperties: false },
      b: { additionalProperties: false },
      merged: undefined,
    },
    {
      behaviour: "a closed object does not take properties it does not declare",
      a: { properties: { a: {} }, additionalProperties: false },
      b: { properties: { b: {} } },
      merged: undefined,
    },
    {
      behaviour: "a closed object takes constraints on the properties it declares",
      a: { properties: { a: {} }, additionalProperties: false },
      b: { properties: { a: { type: "string" } }, required: ["a"] },
      merged: { properties: { a: { type: "string" } }, additionalProperties: false, required: ["a"] },
    },
    // bounds and flags
    {
      behaviour: "the larger lower bound and the smaller upper bound win",
      a: { minLength: 1, maxLength: 9, minimum: 0, maximum: 5, minItems: 2, maxItems: 4 },
      b: { minLength: 2, maxLength: 8, minimum: 1, maximum: 6, minItems: 1, maxItems: 3 },
      merged: { minLength: 2, maxLength: 8, minimum: 1, maximum: 5, minItems: 2, maxItems: 3 },
    },
    {
      behaviour: "exclusive bounds and property counts tighten the same way",
      a: { exclusiveMinimum: 0, exclusiveMaximum: 10, minProperties: 1, maxProperties: 5 },
      b: { exclusiveMinimum: 2, exclusiveMaximum: 12, minProperties: 0, maxProperties: 3 },
      merged: { exclusiveMinimum: 2, exclusiveMaximum: 10, minProperties: 1, maxProperties: 3 },
    },
    {
      behaviour: "uniqueItems on either side holds",
      a: { uniqueItems: false },
      b: { uniqueItems: true },
      merged: { uniqueItems: true },
    },
    {
      behaviour: "nullable holds only when both sides are nullable",
      a: { nullable: true },
      b: { nullable: false },
      merged: { nullable: false },
    },
    // arrays
    {
      behaviour: "items merge",
      a: { items: { type: "string" } },
      b: { items: { maxLength: 3 } },
      merged: { items: { type: "string", maxLength: 3 } },
    },
    {
      behaviour: "items that do not merge are allOf of both",
      a: { items: { const: 1 } },
      b: { items: { const: 2 } },
      merged: { items: { allOf: [{ const: 1 }, { const: 2 }] } },
    },
    { behaviour: "tuple items do not merge", a: { items: [{ type: "string" }] }, b: { items: {} }, merged: undefined },
    // values
    {
      behaviour: "enums give the values both list, in the shorter list's order",
      a: { enum: ["a", "b", "c"] },
      b: { enum: ["c", "b"] },
      merged: { enum: ["c", "b"] },
    },
    {
      behaviour: "enums with no value in common do not merge",
      a: { enum: ["a"] },
      b: { enum: ["b"] },
      merged: undefined,
    },
    { behaviour: "equal consts stay", a: { const: "a" }, b: { const: "a" }, merged: { const: "a" } },
    { behaviour: "different consts do not merge", a: { const: "a" }, b: { const: "b" }, merged: undefined },
    {
      behaviour: "a const in the other side's enum replaces the enum",
      a: { enum: ["a", "b"] },
      b: { const: "a" },
      merged: { const: "a" },
    },
    {
      behaviour: "a const outside the other side's enum does not merge",
      a: { enum: ["a"] },
      b: { const: "z" },
      merged: undefined,
    },
    { behaviour: "a const of another type does not merge", a: { type: "string" }, b: { const: 1 }, merged: undefined },
    {
      behaviour: "enum values of a type the merge does not admit are dropped",
      a: { type: "integer" },
      b: { enum: ["a", 1, 2.5, 3] },
      merged: { type: "integer", enum: [1, 3] },
    },
    {
      behaviour: "an enum left with no value does not merge",
      a: { type: "boolean" },
      b: { enum: ["a"] },
      merged: undefined,
    },
    // everything else
    { behaviour: "equal patterns stay", a: { pattern: "^a" }, b: { pattern: "^a" }, merged: { pattern: "^a" } },
    { behaviour: "different patterns do not merge", a: { pattern: "^a" }, b: { pattern: "b$" }, merged: undefined },
    { behaviour: "different formats do not merge", a: { format: "uuid" }, b: { format: "email" }, merged: undefined },
    {
      behaviour: "equal oneOfs stay, different ones do not merge",
      a: { oneOf: [{ type: "string" }, { type: "null" }] },
      b: { oneOf: [{ type: "string" }, { type: "null" }] },
      merged: { oneOf: [{ type: "string" }, { type: "null" }] },
    },
    { behaviour: "different nots do not merge", a: { not: { const: 1 } }, b: { not: { const: 2 } }, merged: undefined },
    {
      behaviour: "allOf lists are joined",
      a: { allOf: [{ minimum: 1 }] },
      b: { allOf: [{ maximum: 2 }] },
      merged: { allOf: [{ minimum: 1 }, { maximum: 2 }] },
    },
    {
      behaviour: "annotations and extensions are dropped, the discriminator kept (a's)",
      a: { type: "object", title: "A", "x-a": 1, discriminator: { propertyName: "kind" } },
      b: { type: "object", description: "B", example: {}, discriminator: { propertyName: "type" } },
      merged: { type: "object", discriminator: { propertyName: "kind" } },
    },
  ])("$behaviour", ({ a, b, merged }) => {
    expect(mergeSchemas(doc, a, b)).toEqual(merged);
  });

  it("leaves both sides as they were", () => {
    const a: JsonSchema = { type: ["integer", "string"], enum: [1, "a"], properties: { p: { minimum: 0 } } };
    const b: JsonSchema = { type: "integer", properties: { p: { maximum: 1 } } };
    const before = structuredClone([a, b]);
    mergeSchemas(doc, a, b);
    expect([a, b]).toEqual(before);
  });
});

describe("foldAllOf", () => {
  it("folds the members, then the schema's own keywords, into one schema", () => {
    const schema: JsonSchema = {
      properties: { own: { type: "string" } },
      allOf: [{ $ref: "#/components/schemas/Obj" }, { required: ["own"] }],
    };
    expect(foldAllOf(doc, schema)).toEqual({
      schema: {
        type: "object",
        required: ["id", "own"],
        properties: { id: { type: "string" }, own: { type: "string" } },
      },
      rest: [],
    });
  });

  it("keeps the members that do not fold apart, in order", () => {
    const schema: JsonSchema = { allOf: [{ const: 1 }, { type: "integer" }, { const: 2 }, { const: 3 }] };
    expect(foldAllOf(doc, schema)).toEqual({
      schema: { const: 1, type: "integer" },
      rest: [{ const: 2 }, { const: 3 }],
    });
  });

  it("folds an allOf that a member brings in", () => {
    const schema: JsonSchema = { allOf: [{ allOf: [{ minimum: 1 }, { maximum: 2 }] }] };
    expect(foldAllOf(doc, schema)).toEqual({ schema: { minimum: 1, maximum: 2 }, rest: [] });
  });

  it("gives a schema without allOf back as it is", () => {
    const schema: JsonSchema = { type: "string" };
    expect(foldAllOf(doc, schema).schema).toBe(schema);
  });
});
