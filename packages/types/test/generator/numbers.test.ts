// zod/numbers.ts: bounds and multipleOf.
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "@exchange-kit/spec-tools/json-schema";
import { zodOf } from "./support.ts";

describe("numbers", () => {
  it.each<{ behaviour: string; schema: JsonSchema; zod: string }>([
    { behaviour: "a number is z.number()", schema: { type: "number" }, zod: "z.number()" },
    { behaviour: "an integer is z.int()", schema: { type: "integer" }, zod: "z.int()" },
    {
      behaviour: "minimum and maximum are inclusive",
      schema: { type: "integer", minimum: 1, maximum: 100 },
      zod: "z.int().gte(1).lte(100)",
    },
    {
      behaviour: "exclusiveMinimum and exclusiveMaximum are strict (3.1's numeric form)",
      schema: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
      zod: "z.number().gt(0).lt(1)",
    },
    {
      behaviour: "multipleOf is kept",
      schema: { type: "number", multipleOf: 0.01 },
      zod: "z.number().multipleOf(0.01)",
    },
    {
      behaviour: "every bound applies, in a fixed order",
      schema: { type: "integer", multipleOf: 2, exclusiveMaximum: 10, minimum: -4, maximum: 8, exclusiveMinimum: -5 },
      zod: "z.int().gte(-4).lte(8).gt(-5).lt(10).multipleOf(2)",
    },
    { behaviour: "number keywords without a type make a number", schema: { minimum: 0 }, zod: "z.number().gte(0)" },
    {
      behaviour: "integer next to number adds nothing",
      schema: { type: ["integer", "number"], minimum: 0 },
      zod: "z.number().gte(0)",
    },
  ])("$behaviour", ({ schema, zod }) => {
    expect(zodOf(schema)).toBe(zod);
  });
});
