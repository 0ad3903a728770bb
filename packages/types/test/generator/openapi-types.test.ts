// lib/openapi-types.ts: the typing view the spec is rewritten to before openapi-typescript reads it, and what
// the generator adds around openapi-typescript's output.
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "@exchange-kit/spec-tools/json-schema";
import { generateOpenapiTypes, openListValues, typingView } from "../../scripts/lib/openapi-types.ts";
import type { OpenApiSpec } from "@exchange-kit/spec-tools/spec";
import { specWith } from "./support.ts";

const A = { type: "object", properties: { a: { type: "string" } } } satisfies JsonSchema;
const B = { type: "object", properties: { b: { type: "string" } } } satisfies JsonSchema;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The typing view of the component `S`, next to the components A and B (and `others`). */
function viewOf(schema: JsonSchema, others: Record<string, JsonSchema> = {}): JsonSchema | undefined {
  return typingView(specWith({ A, B, ...others, S: schema })).components?.schemas?.S;
}

describe("the typing view", () => {
  it.each<{ behaviour: string; schema: JsonSchema; view: JsonSchema }>([
    {
      behaviour: "a oneOf member without a type takes its parent's type",
      schema: { type: "string", oneOf: [{ format: "ipv4" }, { format: "ipv6" }] },
      view: {
        type: "string",
        oneOf: [
          { type: "string", format: "ipv4" },
          { type: "string", format: "ipv6" },
        ],
      },
    },
    {
      behaviour: "an anyOf member without a type takes its parent's type",
      schema: { type: ["string", "null"], anyOf: [{ format: "date" }] },
      view: { type: ["string", "null"], allOf: [{ oneOf: [{ type: ["string", "null"], format: "date" }] }] },
    },
    {
      behaviour: "a member with a type keeps its own",
      schema: { type: ["string", "null"], oneOf: [{ type: "null" }, { format: "date" }] },
      view: { type: ["string", "null"], oneOf: [{ type: "null" }, { type: ["string", "null"], format: "date" }] },
    },
    {
      behaviour: "a reference member is left as it is",
      schema: { type: "object", oneOf: [ref("A"), ref("B")] },
      view: { type: "object", oneOf: [ref("A"), ref("B")] },
    },
    {
      behaviour: "members of a parent without a type get none",
      schema: { oneOf: [{ format: "ipv4" }, { format: "ipv6" }] },
      view: { oneOf: [{ format: "ipv4" }, { format: "ipv6" }] },
    },
    {
      behaviour: "a property a member requires takes the parent's schema of it",
      schema: { type: "object", properties: { a: { type: "string" } }, oneOf: [{ required: ["a"] }] },
      view: {
        type: "object",
        properties: { a: { type: "string" } },
        oneOf: [{ type: "object", required: ["a"], properties: { a: { type: "string" } } }],
      },
    },
    {
      behaviour: "a required property the member describes with annotations only takes the parent's schema",
      schema: {
        type: "object",
        properties: { a: { type: "string" } },
        oneOf: [{ required: ["a"], properties: { a: { description: "Given.", title: "A" } } }],
      },
      view: {
        type: "object",
        properties: { a: { type: "string" } },
        oneOf: [{ type: "object", required: ["a"], properties: { a: { type: "string" } } }],
      },
    },
    {
      behaviour: "a required property the member describes itself keeps the member's schema",
      schema: {
        type: "object",
        properties: { a: { type: "string" } },
        oneOf: [{ required: ["a"], properties: { a: { type: "string", minLength: 1 } } }],
      },
      view: {
        type: "object",
        properties: { a: { type: "string" } },
        oneOf: [{ type: "object", required: ["a"], properties: { a: { type: "string", minLength: 1 } } }],
      },
    },
    {
      behaviour: "a required property the parent does not describe stays undescribed",
      schema: { type: "object", oneOf: [{ required: ["z"] }] },
      view: { type: "object", oneOf: [{ type: "object", required: ["z"], properties: {} }] },
    },
    {
      behaviour: "anyOf beside a type and properties becomes a oneOf inside allOf",
      schema: { type: "object", properties: { id: { type: "string" } }, anyOf: [ref("A"), ref("B")] },
      view: { type: "object", properties: { id: { type: "string" } }, allOf: [{ oneOf: [ref("A"), ref("B")] }] },
    },
    {
      behaviour: "anyOf beside an allOf joins it as its last member",
      schema: { allOf: [ref("A")], anyOf: [ref("B"), { type: "null" }] },
      view: { allOf: [ref("A"), { oneOf: [ref("B"), { type: "null" }] }] },
    },
    {
      behaviour: "anyOf beside a $ref becomes a oneOf inside allOf",
      schema: { $ref: "#/components/schemas/A", anyOf: [ref("B")] },
      view: { $ref: "#/components/schemas/A", allOf: [{ oneOf: [ref("B")] }] },
    },
    {
      behaviour: "anyOf beside additionalProperties becomes a oneOf inside allOf",
      schema: { additionalProperties: false, anyOf: [ref("A")] },
      view: { additionalProperties: false, allOf: [{ oneOf: [ref("A")] }] },
    },
    {
      behaviour: "anyOf beside a oneOf becomes a oneOf inside allOf",
      schema: { oneOf: [ref("A")], anyOf: [ref("B")] },
      view: { oneOf: [ref("A")], allOf: [{ oneOf: [ref("B")] }] },
    },
    {
      behaviour: "anyOf alone stays anyOf",
      schema: { anyOf: [ref("A"), ref("B")] },
      view: { anyOf: [ref("A"), ref("B")] },
    },
    {
      behaviour: "anyOf beside annotations only stays anyOf",
      schema: { description: "A or B.", anyOf: [ref("A"), ref("B")] },
      view: { description: "A or B.", anyOf: [ref("A"), ref("B")] },
    },
    {
      behaviour: "a property a referenced allOf member requires is required in the member that declares it",
      schema: { allOf: [ref("Envelope"), { type: "object", properties: { data: { type: "string" } } }] },
      view: {
        allOf: [ref("Envelope"), { type: "object", properties: { data: { type: "string" } }, required: ["data"] }],
      },
    },
    {
      behaviour: "a property the schema requires is required in the allOf member that declares it",
      schema: { required: ["a"], allOf: [{ properties: { a: {}, b: {} } }] },
      view: { required: ["a"], allOf: [{ properties: { a: {}, b: {} }, required: ["a"] }] },
    },
    {
      behaviour: "a property an allOf member requires is required in the schema's own properties",
      schema: { properties: { a: {} }, allOf: [{ required: ["a"] }] },
      view: { properties: { a: {} }, required: ["a"], allOf: [{ required: ["a"] }] },
    },
    {
      behaviour: "a property already required is not listed twice",
      schema: { allOf: [ref("Envelope"), { properties: { data: {}, meta: {} }, required: ["meta", "data"] }] },
      view: { allOf: [ref("Envelope"), { properties: { data: {}, meta: {} }, required: ["meta", "data"] }] },
    },
  ])("$behaviour", ({ schema, view }) => {
    const Envelope: JsonSchema = { type: "object", required: ["data"], properties: { ok: { type: "boolean" } } };
    expect(viewOf(schema, { Envelope })).toEqual(view);
  });

  it("leaves a referenced allOf member as it is", () => {
    const Envelope = { type: "object", properties: { data: {} } } satisfies JsonSchema;
    const view = typingView(specWith({ Envelope, S: { allOf: [ref("Envelope"), { required: ["data"] }] } }));
    expect(view.components?.schemas?.Envelope).toEqual(Envelope);
  });

  it("rewrites schemas wherever they are: in properties, items and operations", () => {
    const ip: JsonSchema = { type: "string", oneOf: [{ format: "ipv4" }] };
    const typed: JsonSchema = { type: "string", oneOf: [{ type: "string", format: "ipv4" }] };
    const spec: OpenApiSpec = {
      paths: {
        "/hosts": {
          get: { responses: { "200": { content: { "application/json": { schema: { items: ip } } } } } },
        },
      },
      components: { schemas: { Host: { properties: { ip } } } },
    };
    const view = typingView(spec);
    expect(view.components?.schemas?.Host).toEqual({ properties: { ip: typed } });
    expect(view.paths?.["/hosts"]).toEqual({
      get: { responses: { "200": { content: { "application/json": { schema: { items: typed } } } } } },
    });
  });

  it.each(["example", "examples", "default", "const", "enum", "x-sample"])(
    "leaves what is under %s as it is",
    (keyword) => {
      const value = { type: "string", oneOf: [{ format: "ipv4" }] };
      expect(viewOf({ [keyword]: value })).toEqual({ [keyword]: value });
    },
  );

  it("leaves the spec it is given unchanged", () => {
    const spec = specWith({ A, S: { type: "object", properties: { a: {} }, anyOf: [{ required: ["a"] }] } });
    const before = structuredClone(spec);
    typingView(spec);
    expect(spec).toEqual(before);
  });
});

/** An OpenAPI 3.1 document with these component schemas (openapi-typescript reads only documents that say so). */
function openapi3(schemas: Record<string, JsonSchema>): OpenApiSpec {
  const spec = { openapi: "3.1.0", info: { title: "test", version: "1" }, ...specWith(schemas) };
  return spec;
}

/** The generated source for a spec with these component schemas, whitespace collapsed to one space. */
async function typesOf(schemas: Record<string, JsonSchema>): Promise<string> {
  return (await generateOpenapiTypes(openapi3(schemas))).replace(/\s+/g, " ");
}

describe("generateOpenapiTypes", () => {
  it("starts with the generated-file header, then openapi-typescript's output", async () => {
    const source = await generateOpenapiTypes(openapi3({}));
    expect(source).toMatch(
      /^\/\/ Generated by openapi-typescript .*\(typing view: scripts\/lib\/openapi-types\.ts\)\n\/\/ by scripts\/generate\.ts: do not edit by hand; run `pnpm generate`\.\n\nexport type paths = /,
    );
  });

  it.each<{ behaviour: string; schemas: Record<string, JsonSchema>; fragment: string }>([
    {
      behaviour: "an object without properties holds unknown members",
      schemas: { Empty: { type: "object" } },
      fragment: "Empty: Record<string, unknown>;",
    },
    {
      behaviour: "a union of constraints is its parent's type, not unknown",
      schemas: { Ip: { type: "string", oneOf: [{ format: "ipv4" }, { format: "ipv6" }] } },
      fragment: "Ip: string;",
    },
    {
      behaviour: "a union of required properties requires one of the parent's properties",
      schemas: {
        Name: {
          type: "object",
          properties: { full_name: { type: "string" }, first_name: { type: "string" } },
          anyOf: [{ required: ["full_name"] }, { required: ["first_name"] }],
        },
      },
      fragment:
        "Name: { full_name?: string; first_name?: string; } & ({ full_name: string; } | { first_name: string; });",
    },
    {
      behaviour: "anyOf beside a base is the base and one of the members",
      schemas: { A, B, S: { type: "object", properties: { id: { type: "string" } }, anyOf: [ref("A"), ref("B")] } },
      fragment: 'S: { id?: string; } & (components["schemas"]["A"] | components["schemas"]["B"]);',
    },
    {
      behaviour: "a property an envelope requires stays required beside it",
      schemas: {
        Envelope: { type: "object", required: ["data"], properties: { ok: { type: "boolean" } } },
        S: { allOf: [ref("Envelope"), { type: "object", properties: { data: { type: "string" } } }] },
      },
      fragment: 'S: components["schemas"]["Envelope"] & { data: string; };',
    },
  ])("$behaviour", async ({ schemas, fragment }) => {
    expect(await typesOf(schemas)).toContain(fragment);
  });
});

describe("an open list", () => {
  it.each<[string, unknown, string[] | undefined]>([
    ["an enum and a plain string", { anyOf: [{ enum: ["A", "B"] }, { type: "string" }] }, ["A", "B"]],
    [
      "with titled branches",
      {
        anyOf: [
          { title: "k", enum: ["A"] },
          { type: "string", title: "o" },
        ],
      },
      ["A"],
    ],
    ["a string with a pattern is not one", { anyOf: [{ enum: ["A"] }, { type: "string", pattern: "^x" }] }, undefined],
    ["a number branch is not one", { anyOf: [{ enum: ["A"] }, { type: "number" }] }, undefined],
    ["an enum of numbers is not one", { anyOf: [{ enum: [1] }, { type: "string" }] }, undefined],
    ["three branches are not one", { anyOf: [{ enum: ["A"] }, { type: "string" }, { type: "null" }] }, undefined],
    ["a plain enum is not one", { enum: ["A"] }, undefined],
  ])("%s", (_name, schema, values) => {
    expect(openListValues(schema)).toEqual(values);
  });

  it("is typed as its literals or any other string", async () => {
    const source = await generateOpenapiTypes(
      openapi3({ S: { anyOf: [{ enum: ["UNVERIFIED", "VERIFIED"] }, { type: "string" }] } }),
    );
    expect(source).toContain('S: "UNVERIFIED" | "VERIFIED" | (string & Record<never, never>);');
  });
});
