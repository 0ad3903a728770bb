// zod/objects.ts: properties, required, additionalProperties, propertyNames, min/maxProperties, dependentRequired.
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "@exchange-kit/spec-tools/json-schema";
import { translate, zodOf } from "./support.ts";

describe("objects", () => {
  it.each<{ behaviour: string; schema: JsonSchema; zod: string }>([
    {
      behaviour: "an object without keywords keeps every member",
      schema: { type: "object" },
      zod: "z.looseObject({})",
    },
    {
      behaviour: "a property not required is optional",
      schema: { type: "object", properties: { a: { type: "string" }, b: { type: "integer" } }, required: ["a"] },
      zod: "z.looseObject({ a: z.string(), b: z.int().optional() })",
    },
    {
      behaviour: "a required member the schema does not describe is present with any value",
      schema: { type: "object", properties: { a: { type: "string" } }, required: ["data"] },
      zod: "z.looseObject({ a: z.string().optional(), data: z.unknown() })",
    },
    {
      behaviour: "a member name that is not an identifier is quoted",
      schema: { type: "object", properties: { "content-type": { type: "string" }, $id: { type: "string" } } },
      zod: 'z.looseObject({ "content-type": z.string().optional(), $id: z.string().optional() })',
    },
    {
      behaviour: "additionalProperties: true is the default (members kept)",
      schema: { type: "object", properties: { a: {} }, additionalProperties: true },
      zod: "z.looseObject({ a: z.unknown().optional() })",
    },
    {
      behaviour: "additionalProperties: false closes the object",
      schema: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
      zod: "z.strictObject({ a: z.string().optional() })",
    },
    {
      behaviour: "additionalProperties: false without properties admits only {}",
      schema: { type: "object", additionalProperties: false },
      zod: "z.strictObject({})",
    },
    {
      behaviour: "an additionalProperties schema next to properties is a catchall",
      schema: { type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "number" } },
      zod: "z.object({ a: z.string().optional() }).catchall(z.number())",
    },
    {
      behaviour: "an additionalProperties schema alone is a record",
      schema: { type: "object", additionalProperties: { type: "boolean" } },
      zod: "z.record(z.string(), z.boolean())",
    },
    {
      behaviour: "propertyNames alone is the key schema of a record of anything",
      schema: { type: "object", propertyNames: { pattern: "^[a-z]+$" } },
      zod: 'z.record(z.string().regex(new RegExp("^[a-z]+$", "u")), z.unknown())',
    },
    {
      behaviour: "propertyNames with an additionalProperties schema is a record",
      schema: { type: "object", propertyNames: { maxLength: 3 }, additionalProperties: { type: "integer" } },
      zod: "z.record(z.string().max(3), z.int())",
    },
    {
      behaviour: "required members are listed after the described ones",
      schema: { type: "object", required: ["z", "a"], properties: { a: {}, m: {} } },
      zod: "z.looseObject({ a: z.unknown(), m: z.unknown().optional(), z: z.unknown() })",
    },
    {
      behaviour: "object keywords without a type make an object",
      schema: { required: ["id"] },
      zod: "z.looseObject({ id: z.unknown() })",
    },
    {
      behaviour: "a long shape puts one member a line",
      schema: {
        type: "object",
        required: ["customer_id", "first_name", "last_name"],
        properties: {
          customer_id: { type: "string" },
          first_name: { type: "string" },
          last_name: { type: "string" },
          email: { type: "string" },
        },
      },
      zod:
        "z.looseObject({\n" +
        "  customer_id: z.string(),\n" +
        "  first_name: z.string(),\n" +
        "  last_name: z.string(),\n" +
        "  email: z.string().optional(),\n" +
        "})",
    },
    {
      behaviour: "a nested shape that spans lines is indented",
      schema: {
        type: "object",
        required: ["address"],
        properties: {
          address: {
            type: "object",
            required: ["line_one_of_the_address", "line_two_of_the_address", "postal_code"],
            properties: {
              line_one_of_the_address: { type: "string" },
              line_two_of_the_address: { type: "string" },
              postal_code: { type: "string" },
            },
          },
        },
      },
      zod:
        "z.looseObject({\n" +
        "  address: z.looseObject({\n" +
        "    line_one_of_the_address: z.string(),\n" +
        "    line_two_of_the_address: z.string(),\n" +
        "    postal_code: z.string(),\n" +
        "  }),\n" +
        "})",
    },
  ])("$behaviour", ({ schema, zod }) => {
    expect(zodOf(schema)).toBe(zod);
  });

  it.each<{ behaviour: string; schema: JsonSchema; zod: string; helpers: string[] }>([
    {
      behaviour: "propertyNames next to properties checks every key",
      schema: { type: "object", propertyNames: { maxLength: 3 }, properties: { abc: { type: "string" } } },
      zod: "z.looseObject({ abc: z.string().optional() }).check(propertyNames(z.string().max(3)))",
      helpers: ["propertyNames"],
    },
    {
      behaviour: "propertyNames of a closed object checks every key of the shape",
      schema: { type: "object", propertyNames: { minLength: 1 }, additionalProperties: false },
      zod: "z.strictObject({}).check(propertyNames(z.string().min(1)))",
      helpers: ["propertyNames"],
    },
    {
      behaviour: "minProperties and maxProperties check the key count",
      schema: { type: "object", minProperties: 1, maxProperties: 2 },
      zod: "z.looseObject({}).check(propertyCount(1, 2))",
      helpers: ["propertyCount"],
    },
    {
      behaviour: "minProperties alone has no upper bound",
      schema: { type: "object", minProperties: 1 },
      zod: "z.looseObject({}).check(propertyCount(1, Infinity))",
      helpers: ["propertyCount"],
    },
    {
      behaviour: "maxProperties alone has a lower bound of 0",
      schema: { type: "object", additionalProperties: { type: "string" }, maxProperties: 5 },
      zod: "z.record(z.string(), z.string()).check(propertyCount(0, 5))",
      helpers: ["propertyCount"],
    },
    {
      behaviour: "dependentRequired is checked after the shape",
      schema: {
        type: "object",
        properties: { card: { type: "string" }, cvv: { type: "string" } },
        dependentRequired: { card: ["cvv"] },
      },
      zod: 'z.looseObject({ card: z.string().optional(), cvv: z.string().optional() }).check(dependentRequired({"card":["cvv"]}))',
      helpers: ["dependentRequired"],
    },
  ])("$behaviour", ({ schema, zod, helpers }) => {
    expect(translate(schema)).toEqual({ code: zod, helpers });
  });
});
