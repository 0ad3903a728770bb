// lib/index-gen.ts: the operation entries, the operation routes and index, the error codes and the component
// aliases of the "." entry.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  generateAliases,
  generateErrCodes,
  generateOperationIndex,
  generateOperationRoutes,
  type OperationEntry,
  operationEntries,
} from "../../scripts/lib/index-gen.ts";
import type { JsonSchema } from "@exchange-kit/spec-tools/json-schema";
import type { OpenApiSpec, Operation, PathItem } from "@exchange-kit/spec-tools/spec";
import { specWith } from "./support.ts";

/** A valid operation (an operationId, one tag, an idempotency class) with `overrides` on top. */
function op(overrides: Partial<Operation> = {}): Operation {
  return { operationId: "getThing", tags: ["Things"], "x-idempotency": "safe", ...overrides };
}

/** The one entry of a spec whose only path is `path`. */
function entryOf(path: string, item: PathItem, components: OpenApiSpec["components"] = {}): OperationEntry {
  const entries = operationEntries({ paths: { [path]: item }, components });
  expect(entries).toHaveLength(1);
  return entries[0] as OperationEntry;
}

/** A valid entry with `overrides` on top. */
function entry(overrides: Partial<OperationEntry> = {}): OperationEntry {
  return {
    operationId: "getThing",
    method: "get",
    path: "/things",
    tag: "Things",
    summary: "",
    pathParams: [],
    queryParams: [],
    requiredQueryParams: [],
    hasBody: false,
    bodyRequired: false,
    idempotency: "safe",
    ...overrides,
  };
}

describe("operationEntries", () => {
  it("describes an operation by its id, method, path, tag, summary and idempotency class", () => {
    const item = { post: op({ operationId: "createThing", summary: "Creates a thing.", "x-idempotency": "unsafe" }) };
    expect(entryOf("/things", item)).toEqual(
      entry({ operationId: "createThing", method: "post", summary: "Creates a thing.", idempotency: "unsafe" }),
    );
  });

  it.each<{ behaviour: string; path: string; item: PathItem; fields: Partial<OperationEntry> }>([
    {
      behaviour: "the path parameters are the template's names, in path order",
      path: "/a/{b_id}/c/{a_id}",
      item: {
        get: op({
          parameters: [
            { name: "a_id", in: "path", required: true },
            { name: "b_id", in: "path", required: true },
          ],
        }),
      },
      fields: { pathParams: ["b_id", "a_id"] },
    },
    {
      behaviour: "a path parameter may be declared on the path item",
      path: "/things/{id}",
      item: { parameters: [{ name: "id", in: "path", required: true }], get: op() },
      fields: { pathParams: ["id"] },
    },
    {
      behaviour:
        "the query parameters are the path item's, then the operation's, in declaration order; those marked required are required",
      path: "/things",
      item: {
        parameters: [{ name: "page", in: "query" }],
        get: op({
          parameters: [
            { name: "size", in: "query", required: true },
            { name: "from", in: "query", required: false },
          ],
        }),
      },
      fields: { queryParams: ["page", "size", "from"], requiredQueryParams: ["size"] },
    },
    {
      behaviour: "an operation's parameter overrides the path item's of the same name and place, keeping its position",
      path: "/things",
      item: {
        parameters: [
          { name: "page", in: "query" },
          { name: "size", in: "query" },
        ],
        get: op({ parameters: [{ name: "page", in: "query", required: true }] }),
      },
      fields: { queryParams: ["page", "size"], requiredQueryParams: ["page"] },
    },
    {
      behaviour: "header and cookie parameters are neither path nor query parameters",
      path: "/things",
      item: {
        get: op({
          parameters: [
            { name: "x-trace", in: "header", required: true },
            { name: "session", in: "cookie" },
          ],
        }),
      },
      fields: { pathParams: [], queryParams: [], requiredQueryParams: [] },
    },
    {
      behaviour: "an operation without a request body has no body",
      path: "/things",
      item: { post: op() },
      fields: { method: "post", hasBody: false, bodyRequired: false },
    },
    {
      behaviour: "a request body not marked required is optional",
      path: "/things",
      item: { post: op({ requestBody: { content: {} } }) },
      fields: { method: "post", hasBody: true, bodyRequired: false },
    },
    {
      behaviour: "a request body marked required is required",
      path: "/things",
      item: { post: op({ requestBody: { required: true, content: {} } }) },
      fields: { method: "post", hasBody: true, bodyRequired: true },
    },
    {
      behaviour: "a guarded operation is guarded",
      path: "/things",
      item: { post: op({ "x-idempotency": "guarded" }) },
      fields: { method: "post", idempotency: "guarded" },
    },
    {
      behaviour: "a create resolved by its reference keeps its class",
      path: "/things",
      item: { post: op({ "x-idempotency": "safe-by-reference" }) },
      fields: { method: "post", idempotency: "safe-by-reference" },
    },
    {
      behaviour: "a delete resolved on not-found keeps its class",
      path: "/things",
      item: { delete: op({ "x-idempotency": "safe-delete" }) },
      fields: { method: "delete", idempotency: "safe-delete" },
    },
  ])("$behaviour", ({ path, item, fields }) => {
    expect(entryOf(path, item)).toMatchObject(fields);
  });

  it("follows references to parameters and request bodies", () => {
    const components = {
      parameters: { Id: { name: "id", in: "path", required: true }, Page: { name: "page", in: "query" } },
      requestBodies: { Thing: { required: true, content: {} } },
    };
    const item = {
      put: op({
        parameters: [{ $ref: "#/components/parameters/Id" }, { $ref: "#/components/parameters/Page" }],
        requestBody: { $ref: "#/components/requestBodies/Thing" },
      }),
    };
    expect(entryOf("/things/{id}", item, components)).toMatchObject({
      pathParams: ["id"],
      queryParams: ["page"],
      hasBody: true,
      bodyRequired: true,
    });
  });

  it("lists the operations of paths in document order, methods in OpenAPI's order, and no webhook", () => {
    const spec: OpenApiSpec = {
      paths: {
        "/b": { post: op({ operationId: "postB" }), get: op({ operationId: "getB" }) },
        "/a": { delete: op({ operationId: "deleteA" }) },
      },
      webhooks: { HOOK: { post: op({ operationId: "hook" }) } },
    };
    expect(operationEntries(spec).map((e) => `${e.method} ${e.path} ${e.operationId}`)).toEqual([
      "get /b getB",
      "post /b postB",
      "delete /a deleteA",
    ]);
  });

  it("accepts any tag when the root declares no tags", () => {
    expect(entryOf("/things", { get: op({ tags: ["Anything"] }) }).tag).toBe("Anything");
  });

  it("accepts a tag the root declares", () => {
    const spec: OpenApiSpec = { tags: [{ name: "Things" }], paths: { "/things": { get: op() } } };
    expect(operationEntries(spec).map((e) => e.tag)).toEqual(["Things"]);
  });

  it.each<{ behaviour: string; spec: OpenApiSpec; error: string }>([
    {
      behaviour: "an operation without an operationId",
      spec: { paths: { "/things": { get: op({ operationId: undefined }) } } },
      error: "GET /things has no operationId",
    },
    {
      behaviour: "an operationId used twice",
      spec: { paths: { "/a": { get: op({ operationId: "same" }) }, "/b": { get: op({ operationId: "same" }) } } },
      error: "operationId same is used twice",
    },
    {
      behaviour: "an operation without tags",
      spec: { paths: { "/things": { get: op({ tags: undefined }) } } },
      error: "GET /things must have exactly one tag",
    },
    {
      behaviour: "an operation with no tag",
      spec: { paths: { "/things": { get: op({ tags: [] }) } } },
      error: "GET /things must have exactly one tag",
    },
    {
      behaviour: "an operation with two tags",
      spec: { paths: { "/things": { get: op({ tags: ["Things", "Other"] }) } } },
      error: "GET /things must have exactly one tag",
    },
    {
      behaviour: "a tag the root tags do not declare",
      spec: { tags: [{ name: "Other" }], paths: { "/things": { get: op() } } },
      error: "GET /things: tag Things is not declared in the root tags",
    },
    {
      behaviour: "a path template parameter that is not declared",
      spec: { paths: { "/things/{id}": { get: op() } } },
      error: "GET /things/{id}: path parameter {id} is not declared",
    },
    {
      behaviour: "a path template parameter declared in another place than the path",
      spec: { paths: { "/things/{id}": { get: op({ parameters: [{ name: "id", in: "query" }] }) } } },
      error: "GET /things/{id}: path parameter {id} is not declared",
    },
    {
      behaviour: "a declared path parameter that is not in the path",
      spec: { paths: { "/things": { get: op({ parameters: [{ name: "id", in: "path", required: true }] }) } } },
      error: "GET /things: path parameter id is not in the path",
    },
    {
      behaviour: "an operation without x-idempotency",
      spec: { paths: { "/things": { get: op({ "x-idempotency": undefined }) } } },
      error:
        "GET /things: x-idempotency must be one of safe, safe-by-reference, safe-delete, guarded, unsafe (got undefined)",
    },
    {
      behaviour: "an x-idempotency that is not a class",
      spec: { paths: { "/things": { patch: op({ "x-idempotency": "idempotent" }) } } },
      error:
        'PATCH /things: x-idempotency must be one of safe, safe-by-reference, safe-delete, guarded, unsafe (got "idempotent")',
    },
  ])("refuses $behaviour", ({ spec, error }) => {
    expect(() => operationEntries(spec)).toThrow(error);
  });
});

describe("generateOperationRoutes", () => {
  it("writes one route tuple per entry, in entry order: tag, path, method, parameters, body, idempotency", () => {
    const source = generateOperationRoutes([
      entry({ operationId: "listThings", queryParams: ["page", "size"] }),
      entry({
        operationId: "createThing",
        method: "post",
        path: "/things/{id}",
        pathParams: ["id"],
        hasBody: true,
        idempotency: "guarded",
      }),
    ]);
    expect(source).toContain(
      "export const operationRoutes = {\n" +
        '  listThings: ["Things", "/things", "get", [], ["page", "size"], false, "safe"],\n' +
        '  createThing: ["Things", "/things/{id}", "post", ["id"], [], true, "guarded"],\n' +
        "} as const satisfies Record<string, OperationRoute>;",
    );
  });

  it("quotes an operationId that is not an identifier", () => {
    expect(generateOperationRoutes([entry({ operationId: "get-thing" })])).toContain(
      '  "get-thing": ["Things", "/things", "get", [], [], false, "safe"],',
    );
  });

  it("types the idempotency class as the three classes", () => {
    expect(generateOperationRoutes([])).toContain(
      'export type IdempotencyClass = "safe" | "safe-by-reference" | "safe-delete" | "guarded" | "unsafe";',
    );
  });

  it("starts with the generated-file header", () => {
    expect(generateOperationRoutes([])).toMatch(/^\/\/ Generated by scripts\/generate\.ts .*run `pnpm generate`\.\n/);
  });
});

describe("generateOperationIndex", () => {
  it("writes each entry's summary and required parts, in entry order", () => {
    const source = generateOperationIndex([
      entry({ operationId: "listThings", summary: 'Lists "things".', requiredQueryParams: ["page"] }),
      entry({ operationId: "createThing", hasBody: true, bodyRequired: true }),
    ]);
    expect(source).toContain(
      "const operationDetails = {\n" +
        '  listThings: { summary: "Lists \\"things\\".", requiredQueryParams: ["page"], bodyRequired: false },\n' +
        '  createThing: { summary: "", requiredQueryParams: [], bodyRequired: true },\n' +
        "} as const satisfies",
    );
  });

  it("quotes an operationId that is not an identifier", () => {
    expect(generateOperationIndex([entry({ operationId: "get-thing" })])).toContain(
      '  "get-thing": { summary: "", requiredQueryParams: [], bodyRequired: false },',
    );
  });

  it("builds the index from the routes module", () => {
    expect(generateOperationIndex([])).toContain(
      'import { operationRoutes, type IdempotencyClass, type OperationRoutes, type PathItemMethod } from "./routes.js";',
    );
  });
});

/** The err_code values generateErrCodes lists for `spec`, in order. */
function errCodesOf(spec: OpenApiSpec): string[] {
  const list = /export const errCodes = \[\n([\s\S]*)\] as const;/.exec(generateErrCodes(spec))?.[1];
  if (list === undefined) throw new Error("no errCodes list");
  return [...list.matchAll(/^ {2}(".*"),$/gm)].map((m) => JSON.parse(m[1] as string) as string);
}

/** A spec whose one operation answers 400 with an error body whose err_code is `errCode`. */
function answering400(errCode: JsonSchema, schemas: Record<string, JsonSchema> = {}): OpenApiSpec {
  const body = { allOf: [{ $ref: "#/components/schemas/Error" }, { properties: { err_code: errCode } }] };
  return {
    paths: { "/things": { get: op({ responses: { "400": { content: { "application/json": { schema: body } } } } }) } },
    components: { schemas: { Error: { type: "object" }, ...schemas } },
  };
}

describe("generateErrCodes", () => {
  it.each<{ behaviour: string; spec: OpenApiSpec; codes: string[] }>([
    {
      behaviour: "an operation's err_code enum is listed",
      spec: answering400({ enum: ["A", "B"] }),
      codes: ["A", "B"],
    },
    {
      behaviour: "an err_code const is listed",
      spec: answering400({ const: "ONLY" }),
      codes: ["ONLY"],
    },
    {
      behaviour: "an err_code is followed through $ref",
      spec: answering400({ $ref: "#/components/schemas/Codes" }, { Codes: { type: "string", enum: ["R"] } }),
      codes: ["R"],
    },
    {
      behaviour: "the members of an err_code's allOf, anyOf and oneOf are listed in order",
      spec: answering400({ allOf: [{ enum: ["ALL"] }], anyOf: [{ const: "ANY" }], oneOf: [{ enum: ["ONE"] }] }),
      codes: ["ALL", "ANY", "ONE"],
    },
    {
      behaviour: "the ErrCode component's values come first, then the others in document order",
      spec: answering400({ enum: ["OP", "SHARED"] }, { ErrCode: { type: "string", enum: ["SHARED", "GENERAL"] } }),
      codes: ["SHARED", "GENERAL", "OP"],
    },
    {
      behaviour: "a value named twice is listed once, where it first appears",
      spec: answering400({ enum: ["A", "B"] }, { Other: { properties: { err_code: { enum: ["B", "C", "A"] } } } }),
      codes: ["A", "B", "C"],
    },
    {
      behaviour: "values that are not strings are left out",
      spec: answering400({ enum: ["A", 1, null, true] }),
      codes: ["A"],
    },
    {
      behaviour: "properties of another name are not err_codes",
      spec: answering400({ enum: ["A"] }, { Other: { properties: { error_code: { enum: ["NOT"] } } } }),
      codes: ["A"],
    },
    {
      behaviour: "err_code properties inside examples, defaults, enums and consts are not read",
      spec: answering400(
        { enum: ["A"] },
        {
          Example: { example: { properties: { err_code: { enum: ["EXAMPLE"] } } } },
          Examples: { examples: [{ properties: { err_code: { enum: ["EXAMPLES"] } } }] },
          Default: { default: { properties: { err_code: { const: "DEFAULT" } } } },
          Enum: { enum: [{ properties: { err_code: { const: "ENUM" } } }] },
          Const: { const: { properties: { err_code: { const: "CONST" } } } },
        },
      ),
      codes: ["A"],
    },
    {
      behaviour: "an err_code schema that refers to itself is read once",
      spec: answering400(
        { $ref: "#/components/schemas/Codes" },
        { Codes: { enum: ["LOOP"], allOf: [{ $ref: "#/components/schemas/Codes" }] } },
      ),
      codes: ["LOOP"],
    },
    {
      behaviour: "a spec without err_code lists none",
      spec: specWith({ Customer: { type: "object" } }),
      codes: [],
    },
  ])("$behaviour", ({ spec, codes }) => {
    expect(errCodesOf(spec)).toEqual(codes);
  });

  it("writes the values as a const array after the header", () => {
    expect(generateErrCodes(answering400({ enum: ["A", "B"] }))).toMatch(
      /^\/\/ Generated by scripts\/generate\.ts .*\n\n\/\*\*\n \* Every `err_code` value the spec names: .*\n \*\/\nexport const errCodes = \[\n {2}"A",\n {2}"B",\n\] as const;\n$/,
    );
  });
});

/** A spec with these component schemas and these webhooks (each a POST with `body` as its JSON body). */
function specWithWebhooks(schemas: Record<string, JsonSchema>, bodies: Record<string, JsonSchema>): OpenApiSpec {
  const webhooks = Object.fromEntries(
    Object.entries(bodies).map(([name, schema]) => [
      name,
      { post: { requestBody: { content: { "application/json": { schema } } } } },
    ]),
  );
  return { paths: {}, webhooks, components: { schemas } };
}

describe("generateAliases", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("gives every component schema an alias, with its description as documentation", () => {
    const source = generateAliases(specWith({ Customer: { description: "A customer." }, Wallet: {} }));
    expect(source).toContain(
      '/**\n * A customer.\n */\nexport type Customer = components["schemas"]["Customer"];\n\n' +
        'export type Wallet = components["schemas"]["Wallet"];\n',
    );
  });

  it.each<{ behaviour: string; schemas: Record<string, JsonSchema>; alias: string }>([
    {
      behaviour: "a component name that is not an identifier gets a PascalCase alias naming the component",
      schemas: { "bank-account": {} },
      alias:
        '/**\n * The `bank-account` component schema.\n */\nexport type BankAccount = components["schemas"]["bank-account"];',
    },
    {
      behaviour: "a component named like a generated type gets the suffix Base",
      schemas: { WebhookEvent: { description: "The envelope." } },
      alias:
        "/**\n * The envelope.\n *\n * The `WebhookEvent` component schema.\n */\n" +
        'export type WebhookEventBase = components["schemas"]["WebhookEvent"];',
    },
    {
      behaviour: "a component named like an openapi-typescript interface gets the suffix Base",
      schemas: { operations: {} },
      alias:
        '/**\n * The `operations` component schema.\n */\nexport type operationsBase = components["schemas"]["operations"];',
    },
  ])("$behaviour", ({ schemas, alias }) => {
    expect(generateAliases(specWith(schemas))).toContain(alias);
  });

  it("refuses two components that would get the same alias", () => {
    expect(() => generateAliases(specWith({ "bank-account": {}, BankAccount: {} }))).toThrow(
      "both map to the alias BankAccount",
    );
  });

  it.each<{ behaviour: string; bodies: Record<string, JsonSchema>; union: string }>([
    {
      behaviour: "a webhook body that references a component is that component's alias",
      bodies: { CUSTOMER: { $ref: "#/components/schemas/customer-event" } },
      union: "export type WebhookEvent = CustomerEvent;",
    },
    {
      behaviour: "a reference with annotations is still a plain reference",
      bodies: { CUSTOMER: { $ref: "#/components/schemas/customer-event", description: "The event." } },
      union: "export type WebhookEvent = CustomerEvent;",
    },
    {
      behaviour: "any other webhook body is the webhook's request body type",
      bodies: {
        PAYIN: { type: "object" },
        CUSTOMER: { $ref: "#/components/schemas/customer-event", minProperties: 1 },
      },
      union:
        'export type WebhookEvent = NonNullable<webhooks["PAYIN"]["post"]>["requestBody"]["content"]["application/json"]' +
        ' | NonNullable<webhooks["CUSTOMER"]["post"]>["requestBody"]["content"]["application/json"];',
    },
    {
      behaviour: "no webhook makes the union never",
      bodies: {},
      union: "export type WebhookEvent = never;",
    },
  ])("the webhook union: $behaviour", ({ bodies, union }) => {
    expect(generateAliases(specWithWebhooks({ "customer-event": {} }, bodies))).toContain(union);
  });

  it("names the webhooks of the union in its documentation, in document order", () => {
    const bodies: Record<string, JsonSchema> = {
      PAYOUT: { type: "object" },
      CUSTOMER: { $ref: "#/components/schemas/customer-event" },
    };
    expect(generateAliases(specWithWebhooks({ "customer-event": {} }, bodies))).toContain(
      " * (PAYOUT, CUSTOMER). Narrow on `type`, then on `event`.",
    );
  });

  it("leaves out of the union a webhook without a JSON body", () => {
    const spec = specWithWebhooks({}, { CUSTOMER: { type: "object" } });
    spec.webhooks = { ...spec.webhooks, PING: { post: {} } };
    expect(generateAliases(spec)).toContain(" * (CUSTOMER). Narrow");
  });

  it("without an ErrCode component, declares ErrCode from the errCodes list", () => {
    const source = generateAliases(specWith({ Customer: {} }));
    expect(source).toContain(
      'import type { components, webhooks } from "./openapi.js";\nimport type { errCodes } from "./err-codes.js";\n',
    );
    expect(source).toMatch(/\*\/\nexport type ErrCode = \(typeof errCodes\)\[number\];\n$/);
  });

  it("with an ErrCode component, leaves ErrCode to the component's alias", () => {
    const source = generateAliases(answering400({ enum: ["A"] }, { ErrCode: { type: "string", enum: ["A"] } }));
    expect(source).not.toContain("err-codes.js");
    expect(source).not.toContain("typeof errCodes");
    expect(source).toContain('export type ErrCode = components["schemas"]["ErrCode"];');
  });

  it("warns of err_code values the ErrCode component does not list", () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    generateAliases(answering400({ enum: ["A", "B", "C"] }, { ErrCode: { type: "string", enum: ["A"] } }));
    expect(warn).toHaveBeenCalledExactlyOnceWith(
      "err_code values missing from components.schemas.ErrCode (the tests will fail): B, C",
    );
  });

  it("does not warn when the ErrCode component lists every err_code value", () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    generateAliases(answering400({ enum: ["A"] }, { ErrCode: { type: "string", enum: ["A", "B"] } }));
    expect(warn).not.toHaveBeenCalled();
  });
});
