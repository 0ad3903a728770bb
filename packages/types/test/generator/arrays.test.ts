// zod/arrays.ts: items, minItems/maxItems and uniqueItems.
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "@exchange-kit/spec-tools/json-schema";
import { translate, zodOf } from "./support.ts";

describe("arrays", () => {
  it.each<{ behaviour: string; schema: JsonSchema; zod: string }>([
    { behaviour: "an array without items holds anything", schema: { type: "array" }, zod: "z.array(z.unknown())" },
    {
      behaviour: "items is the element schema",
      schema: { type: "array", items: { type: "string", format: "uuid" } },
      zod: "z.array(z.guid())",
    },
    {
      behaviour: "minItems and maxItems are .min() and .max()",
      schema: { type: "array", items: { type: "integer" }, minItems: 1, maxItems: 3 },
      zod: "z.array(z.int()).min(1).max(3)",
    },
    {
      behaviour: "array keywords without a type make an array",
      schema: { items: { type: "boolean" } },
      zod: "z.array(z.boolean())",
    },
    {
      behaviour: "uniqueItems: false checks nothing",
      schema: { type: "array", uniqueItems: false },
      zod: "z.array(z.unknown())",
    },
    {
      behaviour: "arrays nest",
      schema: { type: "array", items: { type: "array", items: { type: "number" }, minItems: 2 } },
      zod: "z.array(z.array(z.number()).min(2))",
    },
  ])("$behaviour", ({ schema, zod }) => {
    expect(zodOf(schema)).toBe(zod);
  });

  it("checks uniqueItems with the uniqueItems helper", () => {
    expect(translate({ type: "array", items: { type: "string" }, uniqueItems: true })).toEqual({
      code: "z.array(z.string()).check(uniqueItems())",
      helpers: ["uniqueItems"],
    });
  });

  it("refuses tuple items (draft-04 arrays)", () => {
    expect(() => zodOf({ type: "array", items: [{ type: "string" }] })).toThrow(
      '#: tuple "items" arrays are not supported',
    );
  });
});
