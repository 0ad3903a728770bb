// lib/discriminator.ts: the property that tells union members apart, and the JSON types a schema admits.
import { describe, expect, it } from "vitest";
import { admittedTypes, findDiscriminator } from "../../scripts/lib/discriminator.ts";
import type { JsonSchema } from "@exchange-kit/spec-tools/json-schema";
import { specWith } from "./support.ts";

const pinned = (name: string, value: JsonSchema): JsonSchema => ({
  type: "object",
  required: [name],
  properties: { [name]: value },
});
const doc = specWith({
  Envelope: { type: "object", required: ["type"], properties: { type: { type: "string" } } },
  Paid: { const: "PAID" },
});

describe("findDiscriminator", () => {
  it.each<{ behaviour: string; members: JsonSchema[]; preferred?: string; found: unknown }>([
    {
      behaviour: "a required property with a const in every member, no value shared",
      members: [pinned("kind", { const: "a" }), pinned("kind", { const: "b" })],
      found: { name: "kind", sets: [["a"], ["b"]] },
    },
    {
      behaviour: "enums pin a member to several values",
      members: [pinned("kind", { enum: ["a", "b"] }), pinned("kind", { const: "c" })],
      found: { name: "kind", sets: [["a", "b"], ["c"]] },
    },
    {
      behaviour: "a property that is not required does not pin",
      members: [{ properties: { kind: { const: "a" } } }, pinned("kind", { const: "b" })],
      found: undefined,
    },
    {
      behaviour: "a value two members share does not tell them apart",
      members: [pinned("kind", { enum: ["a", "b"] }), pinned("kind", { const: "b" })],
      found: undefined,
    },
    {
      behaviour: "values are found through $ref",
      members: [pinned("status", { $ref: "#/components/schemas/Paid" }), pinned("status", { const: "DUE" })],
      found: { name: "status", sets: [["PAID"], ["DUE"]] },
    },
    {
      behaviour: "values are found through allOf (required in one member, pinned in another)",
      members: [
        { allOf: [{ $ref: "#/components/schemas/Envelope" }, { properties: { type: { const: "PAYIN" } } }] },
        { allOf: [{ $ref: "#/components/schemas/Envelope" }, { properties: { type: { const: "PAYOUT" } } }] },
      ],
      found: { name: "type", sets: [["PAYIN"], ["PAYOUT"]] },
    },
    {
      behaviour: "a member that is itself a union takes the values of all its members",
      members: [
        { oneOf: [pinned("event", { const: "SUCCESS" }), pinned("event", { const: "FAILED" })] },
        pinned("event", { const: "REFUNDED" }),
      ],
      found: { name: "event", sets: [["SUCCESS", "FAILED"], ["REFUNDED"]] },
    },
    {
      behaviour: "the first property that tells members apart is chosen",
      members: [
        { type: "object", required: ["a", "b"], properties: { a: { const: 1 }, b: { const: "x" } } },
        { type: "object", required: ["a", "b"], properties: { a: { const: 2 }, b: { const: "y" } } },
      ],
      found: { name: "a", sets: [[1], [2]] },
    },
    {
      behaviour: "a preferred property is the only one looked at",
      members: [
        { type: "object", required: ["a", "b"], properties: { a: { const: 1 }, b: { const: "x" } } },
        { type: "object", required: ["a", "b"], properties: { a: { const: 2 }, b: { const: "y" } } },
      ],
      preferred: "b",
      found: { name: "b", sets: [["x"], ["y"]] },
    },
    {
      behaviour: "a preferred property that does not pin finds nothing",
      members: [pinned("kind", { const: "a" }), pinned("kind", { const: "b" })],
      preferred: "type",
      found: undefined,
    },
    {
      behaviour: "object values do not discriminate",
      members: [pinned("kind", { enum: [{ a: 1 }] }), pinned("kind", { enum: [{ b: 1 }] })],
      found: undefined,
    },
  ])("$behaviour", ({ members, preferred, found }) => {
    expect(findDiscriminator(doc, members, preferred)).toEqual(found);
  });
});

describe("admittedTypes", () => {
  it.each<{ behaviour: string; schema: JsonSchema; types: unknown }>([
    { behaviour: "a const admits its value's type", schema: { const: 1.5 }, types: ["number"] },
    {
      behaviour: "an enum admits its values' types",
      schema: { enum: ["a", 1, "b", null] },
      types: ["string", "integer", "null"],
    },
    { behaviour: "type is read as a list", schema: { type: "string" }, types: ["string"] },
    { behaviour: "nullable adds null", schema: { type: ["integer"], nullable: true }, types: ["integer", "null"] },
    { behaviour: "keywords of one family imply its type", schema: { minItems: 1 }, types: ["array"] },
    {
      behaviour: "a reference admits its target's types",
      schema: { $ref: "#/components/schemas/Paid" },
      types: ["string"],
    },
    {
      behaviour: "allOf members count",
      schema: { allOf: [{ type: ["string", "null"] }, { type: "string" }] },
      types: ["string"],
    },
    { behaviour: "no type to read admits anything (undefined)", schema: { not: { type: "null" } }, types: undefined },
  ])("$behaviour", ({ schema, types }) => {
    expect(admittedTypes(doc, schema)).toEqual(types);
  });
});
