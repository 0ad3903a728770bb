// spec.ts: references, operations and JSON media of an OpenAPI document.
import { describe, expect, it } from "vitest";
import { deref, errCodesOf, jsonMedia, listOperations, type OpenApiSpec, schemaRefName } from "../src/spec.ts";

const doc: OpenApiSpec = {
  paths: {
    "/a": { get: { operationId: "getA" }, post: { operationId: "postA" }, parameters: [] },
    "/b": { $ref: "#/components/pathItems/B" },
  },
  webhooks: { HOOK: { post: { operationId: "hook" } } },
  components: {
    pathItems: { B: { delete: { operationId: "deleteB" } } },
    requestBodies: { Body: { content: { "application/json": { schema: { type: "string" } } } } },
    "a/b": { "c~d": { found: true } },
  },
};

describe("the spec helpers", () => {
  it.each([
    { ref: "#/components/schemas/Customer", name: "Customer" },
    { ref: "#/components/schemas/a~1b~0c", name: "a/b~c" },
    { ref: "#/components/responses/Error", name: undefined },
    { ref: "other.yaml#/components/schemas/Customer", name: undefined },
    { ref: 42, name: undefined },
  ])("the component schema name of $ref is $name", ({ ref, name }) => {
    expect(schemaRefName(ref)).toBe(name);
  });

  it("follows references, decoding ~1 and ~0 in pointer tokens", () => {
    expect(deref(doc, { $ref: "#/components/a~1b/c~0d" })).toEqual({ found: true });
  });

  it("gives anything that is not a reference back as it is", () => {
    const node = { type: "string" };
    expect(deref(doc, node)).toBe(node);
    expect(deref(doc, undefined)).toBeUndefined();
  });

  it("refuses references it cannot resolve", () => {
    expect(() => deref(doc, { $ref: "#/components/missing" })).toThrow("Unresolvable reference #/components/missing");
    expect(() => deref(doc, { $ref: "other.yaml#/x" })).toThrow("Only local references are supported");
  });

  it("refuses a reference loop", () => {
    const loop = { components: { a: { $ref: "#/components/b" }, b: { $ref: "#/components/a" } } } as OpenApiSpec;
    expect(() => deref(loop, { $ref: "#/components/a" })).toThrow(/Reference loop/);
  });

  it("lists the operations of paths in document order, methods in OpenAPI's order, path items referenced", () => {
    expect(listOperations(doc).map((o) => `${o.method} ${o.key} ${o.operation.operationId}`)).toEqual([
      "get /a getA",
      "post /a postA",
      "delete /b deleteB",
    ]);
  });

  it("lists the operations of webhooks", () => {
    expect(listOperations(doc, "webhooks").map((o) => `${o.method} ${o.key}`)).toEqual(["post HOOK"]);
  });

  it("finds the JSON media type of a body, through a reference", () => {
    expect(jsonMedia(doc, { $ref: "#/components/requestBodies/Body" })).toEqual({ schema: { type: "string" } });
    expect(jsonMedia(doc, { content: { "text/plain": {} } })).toBeUndefined();
    expect(jsonMedia(doc, undefined)).toBeUndefined();
  });
});

describe("errCodesOf", () => {
  const envelope = { $ref: "#/components/schemas/ErrorEnvelope" };
  const doc: OpenApiSpec = {
    components: {
      schemas: { ErrorEnvelope: { type: "object", properties: { err_code: { enum: ["GENERAL"] } } } },
      responses: {
        Shared: {
          content: {
            "application/json": {
              schema: { allOf: [envelope, { properties: { err_code: { enum: ["B", "A", "B"] } } }] },
            },
          },
        },
      },
    },
  };

  it("reads the operation's own codes from the allOf member after the envelope, in order, once each", () =>
    expect(errCodesOf(doc, { responses: { "400": { $ref: "#/components/responses/Shared" } } })).toEqual(["B", "A"]));

  it("is empty for an operation without a 400 answer", () => expect(errCodesOf(doc, { responses: {} })).toEqual([]));
});
