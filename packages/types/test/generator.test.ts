// The zod generator on a small spec of its own, for JSON Schema features the exchange spec does not use (yet):
// each schema is generated, compiled and run against values it must accept and reject.
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as zod from "zod";
import { generateZod } from "../scripts/generate-zod.ts";
import type { OpenApiSpec } from "@exchange-kit/spec-tools/spec";

type Schemas = Record<string, zod.ZodType>;

function compile(schemas: Record<string, unknown>, extra: Record<string, unknown> = {}): Schemas {
  const source = generateZod({
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: {},
    components: { schemas },
    ...extra,
  } as OpenApiSpec);
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const exports: Record<string, unknown> = {};
  const require = (id: string) => {
    if (id === "zod") return zod;
    throw new Error(`unexpected import ${id}`);
  };
  new Function("require", "exports", js)(require, exports);
  return exports as Schemas;
}

function check(schema: zod.ZodType, accepted: unknown[], rejected: unknown[]) {
  for (const value of accepted) {
    const result = schema.safeParse(value);
    expect(result.error?.issues, `accepts ${JSON.stringify(value)}`).toBeUndefined();
    expect(result.data).toEqual(value);
  }
  for (const value of rejected) expect(schema.safeParse(value).success, `rejects ${JSON.stringify(value)}`).toBe(false);
}

describe("the zod generator", () => {
  it("translates type arrays with null, and OpenAPI 3.0 nullable", () => {
    const s = compile({
      A: { type: ["string", "null"], minLength: 2 },
      B: { type: "string", nullable: true },
      C: { type: ["integer", "boolean"] },
    });
    check(s.ASchema!, ["ab", null], ["a", 1, undefined]);
    check(s.BSchema!, ["", null], [1]);
    check(s.CSchema!, [1, true], [1.5, "1", null]);
  });

  it("translates enum and const of mixed types, null included", () => {
    const s = compile({
      A: { enum: ["a", 1, null] },
      B: { const: null },
      C: { type: "string", enum: ["x", "y"] },
      D: { const: 3 },
    });
    check(s.ASchema!, ["a", 1, null], ["b", 2, true]);
    check(s.BSchema!, [null], [0, "null"]);
    check(s.CSchema!, ["x", "y"], ["z"]);
    check(s.DSchema!, [3], [4, "3"]);
  });

  it("translates number bounds and multipleOf", () => {
    const s = compile({
      A: { type: "integer", minimum: 2, exclusiveMaximum: 10, multipleOf: 2 },
      B: { type: "number", exclusiveMinimum: 0, maximum: 1 },
    });
    check(s.ASchema!, [2, 8], [0, 3, 10, 4.5]);
    check(s.BSchema!, [0.5, 1], [0, 1.5]);
  });

  it("translates string formats, pattern and length", () => {
    const s = compile({
      Uuid: { type: "string", format: "uuid" },
      Time: { type: "string", format: "date-time" },
      Day: { type: "string", format: "date" },
      Mail: { type: "string", format: "email" },
      Uri: { type: "string", format: "uri" },
      V4: { type: "string", format: "ipv4" },
      V6: { type: "string", format: "ipv6" },
      Other: { type: "string", format: "not-a-checked-format" },
      Code: { type: "string", pattern: "^[A-Z]{2}\\d$", maxLength: 3 },
    });
    check(s.UuidSchema!, ["3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f"], ["3f0e8d7c", 1]);
    check(
      s.TimeSchema!,
      ["2026-03-01T10:15:30Z", "2026-03-01T10:15:30.5+05:30"],
      ["2026-03-01", "2026-03-01T10:15:30"],
    );
    check(s.DaySchema!, ["2026-03-01"], ["2026-13-01", "01-03-2026"]);
    check(s.MailSchema!, ["a@example.com"], ["a@", "example.com"]);
    check(s.UriSchema!, ["https://example.com/a?b=c"], ["not a uri"]);
    check(s.V4Schema!, ["203.0.113.24"], ["2001:db8::1", "300.1.1.1"]);
    check(s.V6Schema!, ["2001:db8::1"], ["203.0.113.24"]);
    check(s.OtherSchema!, ["anything"], [1]);
    check(s.CodeSchema!, ["AB1"], ["AB12", "ab1"]);
  });

  it("translates arrays with bounds and uniqueItems", () => {
    const s = compile({
      A: { type: "array", items: { type: "integer" }, minItems: 1, maxItems: 3, uniqueItems: true },
    });
    check(s.ASchema!, [[1], [1, 2, 3]], [[], [1, 2, 3, 4], [1, 1], ["1"]]);
  });

  it("keeps open objects open, closes closed ones, and checks additionalProperties schemas", () => {
    const s = compile({
      Open: { type: "object", required: ["a"], properties: { a: { type: "string" } } },
      Closed: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
      Typed: { type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "number" } },
      Map: { type: "object", additionalProperties: { type: "boolean" } },
      Sized: { type: "object", minProperties: 1, maxProperties: 2 },
    });
    check(s.OpenSchema!, [{ a: "x" }, { a: "x", b: [1] }], [{}, { a: 1 }]);
    check(s.ClosedSchema!, [{}, { a: "x" }], [{ b: 1 }]);
    check(s.TypedSchema!, [{ a: "x", b: 1 }], [{ a: "x", b: "y" }]);
    check(s.MapSchema!, [{}, { x: true }], [{ x: 1 }]);
    check(s.SizedSchema!, [{ a: 1 }, { a: 1, b: 2 }], [{}, { a: 1, b: 2, c: 3 }]);
  });

  it("requires members that are required but not described, with any value", () => {
    const s = compile({ A: { type: "object", required: ["data"] } });
    check(s.ASchema!, [{ data: null }, { data: { x: 1 } }], [{}]);
  });

  it("checks propertyNames with and without declared properties", () => {
    const s = compile({
      Keys: { type: "object", propertyNames: { pattern: "^[a-z]+$" }, additionalProperties: { type: "integer" } },
      Mixed: { type: "object", propertyNames: { maxLength: 3 }, properties: { abc: { type: "string" } } },
    });
    check(s.KeysSchema!, [{ inr: 1 }], [{ INR: 1 }, { inr: "1" }]);
    check(s.MixedSchema!, [{ abc: "x", d: 1 }], [{ abcd: 1 }]);
  });

  it("does not apply defaults", () => {
    const s = compile({ A: { type: "object", properties: { p: { type: "string", default: "d" } } } });
    expect(s.ASchema!.parse({})).toEqual({});
  });

  it("merges allOf members, intersecting a property both declare", () => {
    const s = compile({
      Base: {
        type: "object",
        required: ["kind"],
        properties: { kind: { type: "string", enum: ["a", "b"] }, n: { type: "integer" } },
      },
      A: {
        allOf: [{ $ref: "#/components/schemas/Base" }, { properties: { kind: { const: "a" }, n: { minimum: 5 } } }],
      },
      P: {
        allOf: [
          { type: "string", pattern: "^a" },
          { type: "string", pattern: "b$" },
        ],
      },
    });
    check(s.ASchema!, [{ kind: "a" }, { kind: "a", n: 5 }], [{ kind: "b" }, { kind: "a", n: 4 }, {}]);
    check(s.PSchema!, ["ab", "axb"], ["a", "b"]);
  });

  it("keeps allOf members that cannot merge as an intersection (additionalProperties false)", () => {
    const s = compile({
      A: {
        allOf: [
          { type: "object", properties: { a: {} }, additionalProperties: false },
          { type: "object", properties: { b: {} } },
        ],
      },
    });
    check(s.ASchema!, [{ a: 1 }, {}], [{ a: 1, b: 2 }]);
  });

  it("checks that exactly one oneOf member matches when members overlap", () => {
    const s = compile({
      A: {
        oneOf: [
          { type: "string", minLength: 3 },
          { type: "string", maxLength: 3 },
        ],
      },
    });
    check(s.ASchema!, ["abcd", "ab"], ["abc", 1]);
  });

  it("makes a discriminated union from a discriminator, and from a property that tells members apart", () => {
    const member = (kind: string, extra: object) => ({
      type: "object",
      required: ["kind"],
      properties: { kind: { const: kind }, ...extra },
    });
    const s = compile({
      X: member("x", { x: { type: "integer" } }),
      Y: member("y", { y: { type: "string" } }),
      D: {
        oneOf: [{ $ref: "#/components/schemas/X" }, { $ref: "#/components/schemas/Y" }],
        discriminator: { propertyName: "kind", mapping: { x: "#/components/schemas/X", y: "#/components/schemas/Y" } },
      },
      F: { anyOf: [{ $ref: "#/components/schemas/X" }, { $ref: "#/components/schemas/Y" }] },
    });
    for (const schema of [s.DSchema!, s.FSchema!]) {
      check(
        schema,
        [
          { kind: "x", x: 1 },
          { kind: "y", y: "1" },
        ],
        [{ kind: "z" }, { kind: "x", x: "1" }, {}],
      );
    }
    expect(s.DSchema).toBeInstanceOf(zod.ZodDiscriminatedUnion);
    expect(s.FSchema).toBeInstanceOf(zod.ZodDiscriminatedUnion);
  });

  it("translates not and if/then/else", () => {
    const s = compile({
      N: { type: "string", not: { enum: ["forbidden"] } },
      C: {
        type: "object",
        if: { required: ["kind"], properties: { kind: { const: "a" } } },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema if/then/else, never awaited.
        then: { required: ["a"] },
        else: { required: ["b"] },
      },
    });
    check(s.NSchema!, ["allowed"], ["forbidden"]);
    check(
      s.CSchema!,
      [{ kind: "a", a: 1 }, { kind: "z", b: 1 }, { b: 1 }],
      [
        { kind: "a", b: 1 },
        { kind: "z", a: 1 },
      ],
    );
  });

  it("references recursive components lazily", () => {
    const s = compile({
      Node: {
        type: "object",
        required: ["name"],
        properties: {
          name: { type: "string" },
          children: { type: "array", items: { $ref: "#/components/schemas/Node" } },
        },
      },
    });
    check(
      s.NodeSchema!,
      [{ name: "a", children: [{ name: "b", children: [] }] }],
      [{ name: "a", children: [{ children: [] }] }],
    );
  });

  it("refuses keywords it does not understand, so the spec cannot outgrow it silently", () => {
    expect(() => compile({ A: { type: "object", patternProperties: { "^x": { type: "string" } } } })).toThrow(
      /patternProperties/,
    );
    expect(() => compile({ A: { type: "array", prefixItems: [{ type: "string" }] } })).toThrow(/prefixItems/);
  });

  it("is deterministic", () => {
    const schemas = {
      A: { type: "object", properties: { b: { $ref: "#/components/schemas/B" } } },
      B: { type: "string" },
    };
    const spec = {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {},
      components: { schemas },
    } as OpenApiSpec;
    expect(generateZod(structuredClone(spec))).toBe(generateZod(structuredClone(spec)));
  });
});
