// scripts/lib/resources-gen.ts: the client's operations as groups and method names, and the source of
// src/generated/resources/ written from them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JsonSchema } from "@exchange-kit/spec-tools/json-schema";
import type { OpenApiSpec, Operation, PathItem } from "@exchange-kit/spec-tools/spec";
import {
  type ClientOperation,
  clientOperations,
  generateResources,
  withSandboxParameters,
} from "../scripts/lib/resources-gen.ts";

/** An operation of the Customers tag, safe to repeat, with `overrides` on top. */
function op(operationId: string, overrides: Partial<Operation> = {}): Operation {
  return { operationId, tags: ["Customers"], "x-idempotency": "safe", ...overrides };
}

/** What a row checks of a client operation. */
type Named = Pick<
  ClientOperation,
  "operationId" | "method" | "path" | "tag" | "group" | "name" | "isList" | "returnsPage"
>;

/** The client operations of a spec with these paths, without the spec's operation objects. */
function namedOf(paths: OpenApiSpec["paths"], components: OpenApiSpec["components"] = {}): Named[] {
  return clientOperations({ paths, components }).map(
    ({ operationId, method, path, tag, group, name, isList, returnsPage }) => ({
      operationId,
      method,
      path,
      tag,
      group,
      name,
      isList,
      returnsPage,
    }),
  );
}

describe("clientOperations", () => {
  it("names an operation by its tag's group and its operationId without the group's noun", () => {
    expect(namedOf({ "/customers": { post: op("createCustomer") } })).toEqual([
      {
        operationId: "createCustomer",
        method: "post",
        path: "/customers",
        tag: "Customers",
        group: "customers",
        name: "create",
        isList: false,
        returnsPage: false,
      },
    ]);
  });

  it.each<{ behaviour: string; item: PathItem; fields: Partial<Named> }>([
    {
      behaviour: "an unknown tag is its camelCase group, and the method keeps the operationId",
      item: { get: op("getBankStatement", { tags: ["Bank statements"] }) },
      fields: { tag: "Bank statements", group: "bankStatements", name: "getBankStatement" },
    },
    {
      behaviour: "an operation with a page query parameter is a paged list",
      item: { get: op("listCustomers", { parameters: [{ name: "page", in: "query" }] }) },
      fields: { name: "list", isList: true, returnsPage: true },
    },
    {
      behaviour: "a page query parameter on the path item makes a paged list",
      item: { parameters: [{ name: "page", in: "query" }], get: op("listCustomers") },
      fields: { isList: true },
    },
    {
      behaviour: "a page parameter elsewhere than the query does not make a list",
      item: { get: op("getCustomer", { parameters: [{ name: "page", in: "header" }] }) },
      fields: { isList: false, returnsPage: false },
    },
    {
      behaviour: "a list operation without a page parameter answers a page unpaged",
      item: { get: op("listCustomerEdd") },
      fields: { name: "listEdd", isList: false, returnsPage: true },
    },
    {
      behaviour: "an operationId that only starts with the letters list is not a list",
      item: { get: op("listingCustomer") },
      fields: { name: "listing", returnsPage: false },
    },
  ])("$behaviour", ({ item, fields }) => {
    expect(namedOf({ "/customers": item })).toEqual([expect.objectContaining(fields)]);
  });

  it("follows references to path items and parameters", () => {
    const components = {
      pathItems: {
        Customers: { get: op("listCustomers", { parameters: [{ $ref: "#/components/parameters/Page" }] }) },
      },
      parameters: { Page: { name: "page", in: "query" } },
    };
    expect(namedOf({ "/customers": { $ref: "#/components/pathItems/Customers" } }, components)).toEqual([
      expect.objectContaining({ operationId: "listCustomers", isList: true }),
    ]);
  });

  it("lists operations in document order, methods as get, put, post, delete, patch", () => {
    const paths = {
      "/b": { patch: op("patchB"), delete: op("deleteB"), post: op("postB"), put: op("putB"), get: op("getB") },
      "/a": { get: op("getA") },
    };
    expect(namedOf(paths).map((o) => `${o.method} ${o.path}`)).toEqual([
      "get /b",
      "put /b",
      "post /b",
      "delete /b",
      "patch /b",
      "get /a",
    ]);
  });

  it("leaves out head, options and trace operations, and webhooks", () => {
    const spec: OpenApiSpec = {
      paths: { "/customers": { head: op("headCustomers"), options: op("optionsCustomers"), trace: op("trace") } },
      webhooks: { CUSTOMER: { post: op("customerEvent") } },
    };
    expect(clientOperations(spec)).toEqual([]);
  });

  it("keeps the spec's operation object", () => {
    const operation = op("getCustomer");
    expect(clientOperations({ paths: { "/customers": { get: operation } } })[0]?.operation).toBe(operation);
  });
});

describe("generateResources", () => {
  // A repository root with one spec file, where the @see links of the generated methods point.
  let repoRoot: string;
  beforeAll(() => {
    repoRoot = mkdtempSync(join(tmpdir(), "resources-gen-"));
    mkdirSync(join(repoRoot, "openapi", "paths", "customers"), { recursive: true });
    writeFileSync(
      join(repoRoot, "openapi", "paths", "customers", "index.yaml"),
      "get:\n  operationId: listCustomers\npost:\n  operationId: createCustomer\n",
    );
  });
  afterAll(() => {
    rmSync(repoRoot, { recursive: true, force: true });
  });

  const error400 = (errCode: JsonSchema): Operation["responses"] => ({
    "400": {
      content: {
        "application/json": {
          schema: { allOf: [{ $ref: "#/components/schemas/Error" }, { properties: { err_code: errCode } }] },
        },
      },
    },
  });

  /** A spec with the Customers tag, these paths, and the error envelope and err-code components. */
  function specWith(paths: Record<string, PathItem>, tags = [{ name: "Customers", description: "Who pays." }]) {
    const spec: OpenApiSpec = {
      tags,
      paths,
      components: { schemas: { Error: { type: "object" }, Codes: { type: "string", enum: ["SHARED"] } } },
    };
    return spec;
  }

  it("writes one file per group and an index", () => {
    const files = generateResources(
      specWith({ "/customers": { post: op("createCustomer") }, "/kyc": { get: op("getKyc", { tags: ["KYC"] }) } }),
      repoRoot,
    );
    expect(Object.keys(files)).toEqual(["customers.ts", "kyc.ts", "index.ts"]);
  });

  it("writes a group as an interface of documented methods and a function that makes them", () => {
    const spec = specWith({
      "/customers": {
        get: op("listCustomers", { summary: "Lists customers.", parameters: [{ name: "page", in: "query" }] }),
        post: op("createCustomer", {
          summary: "Creates a customer.",
          description: "Once per person.\n",
          "x-idempotency": "guarded",
          responses: error400({ enum: ["A", "B"] }),
        }),
      },
    });
    expect(generateResources(spec, repoRoot)["customers.ts"]).toBe(
      `// Generated by scripts/generate.ts from the bundled openapi/openapi.yaml: do not edit by hand; run \`pnpm generate\`.
import type { ListMethod, MethodFactory, ResourceMethod } from "../../resource-types.js";

/**
 * The Customers operations: Who pays.
 */
export interface CustomersResource {
  /**
   * Lists customers.
   *
   * \`GET /customers\` (listCustomers). Retried after any retryable failure (safe to repeat).
   *
   * err_code on 400: the general codes only.
   *
   * @see {@link https://github.com/exchange-kit/exchange-kit/blob/main/openapi/paths/customers/index.yaml | listCustomers in the spec}
   */
  readonly list: ListMethod<"listCustomers">;
  /**
   * Creates a customer.
   *
   * Once per person.
   *
   * \`POST /customers\` (createCustomer). Retried only after the history shows no order with the body's client_reference_id (guarded).
   *
   * err_code on 400: \`A\`, \`B\`.
   *
   * @see {@link https://github.com/exchange-kit/exchange-kit/blob/main/openapi/paths/customers/index.yaml | createCustomer in the spec}
   */
  readonly create: ResourceMethod<"createCustomer">;
}

/** The Customers methods, each sent through the client's request pipeline. */
export function customersResource(method: MethodFactory): CustomersResource {
  return {
    list: method("listCustomers", "page"),
    create: method("createCustomer"),
  };
}
`,
    );
  });

  it("writes the index of every group, in the order of their first operation", () => {
    const spec = specWith({
      "/kyc": { get: op("getKycConfiguration", { tags: ["KYC"] }) },
      "/customers": { get: op("getCustomer") },
      "/bank-accounts": { get: op("getBankAccount", { tags: ["Bank accounts"] }) },
    });
    expect(generateResources(spec, repoRoot)["index.ts"]).toBe(
      `// Generated by scripts/generate.ts from the bundled openapi/openapi.yaml: do not edit by hand; run \`pnpm generate\`.
import type { MethodFactory } from "../../resource-types.js";
import { kycResource, type KycResource } from "./kyc.js";
import { customersResource, type CustomersResource } from "./customers.js";
import { banksResource, type BanksResource } from "./banks.js";

/** The generated resource groups of the client. */
export interface GeneratedResources {
  readonly kyc: KycResource;
  readonly customers: CustomersResource;
  readonly banks: BanksResource;
}

/** Every resource group, each method sent through \`method\`'s pipeline. */
export function generatedResources(method: MethodFactory): GeneratedResources {
  return {
    kyc: kycResource(method),
    customers: customersResource(method),
    banks: banksResource(method),
  };
}

export type { KycResource, CustomersResource, BanksResource };
`,
    );
  });

  it.each<{ behaviour: string; operation: Operation; fragment: string }>([
    {
      behaviour: "a paged list is a ListMethod that pages",
      operation: op("listCustomers", { parameters: [{ name: "page", in: "query" }] }),
      fragment: 'readonly list: ListMethod<"listCustomers">;',
    },
    {
      behaviour: "a list answered unpaged is a PageMethod that pages",
      operation: op("listCustomerEdd"),
      fragment: 'readonly listEdd: PageMethod<"listCustomerEdd">;',
    },
    {
      behaviour: "any other operation is a ResourceMethod",
      operation: op("getCustomer"),
      fragment: 'readonly get: ResourceMethod<"getCustomer">;',
    },
    {
      behaviour: "a safe-delete operation resolves to the deleted record or DeletedByEarlierAttempt",
      operation: op("deleteCustomer", { "x-idempotency": "safe-delete" }),
      fragment: 'readonly delete: ResourceMethod<"deleteCustomer", Deleted<"deleteCustomer">>;',
    },
    {
      behaviour: "a safe-delete operation's group imports Deleted",
      operation: op("deleteCustomer", { "x-idempotency": "safe-delete" }),
      fragment: 'import type { Deleted, MethodFactory, ResourceMethod } from "../../resource-types.js";',
    },
    {
      behaviour: "a safe-delete operation is documented as resolving a not-found after an uncertain attempt",
      operation: op("deleteCustomer", { "x-idempotency": "safe-delete" }),
      fragment: "a not-found answer after an attempt whose outcome is unknown means that",
    },
    {
      behaviour: "a safe-by-reference operation is documented as resolving its reference through a lookup",
      operation: op("createCustomer", { "x-idempotency": "safe-by-reference" }),
      fragment: "resolves to the record found by that reference (safe-by-reference).",
    },
    {
      behaviour: "the factory is asked to page a list answered unpaged",
      operation: op("listCustomerEdd"),
      fragment: '    listEdd: method("listCustomerEdd", "page"),',
    },
    {
      behaviour: "the factory is not asked to page any other operation",
      operation: op("getCustomer"),
      fragment: '    get: method("getCustomer"),',
    },
    {
      behaviour: "only the method types the group uses are imported",
      operation: op("listCustomerEdd"),
      fragment: 'import type { MethodFactory, PageMethod } from "../../resource-types.js";',
    },
    {
      behaviour: "without a summary, the documentation starts with the operationId",
      operation: op("getCustomer"),
      fragment: "  /**\n   * getCustomer\n   *\n   * `GET /customers` (getCustomer).",
    },
    {
      behaviour: "a safe operation is documented as retried after any retryable failure",
      operation: op("getCustomer"),
      fragment: "Retried after any retryable failure (safe to repeat).",
    },
    {
      behaviour:
        "an unsafe operation is documented as retried only when the request provably did not reach the service",
      operation: op("getCustomer", { "x-idempotency": "unsafe" }),
      fragment:
        "Not safe to repeat: retried only when the request provably did not reach the service; after any other " +
        "retryable failure it throws ExchangeAmbiguousResultError (unsafe).",
    },
    {
      behaviour: "the err_code values of the 400 answer are followed through $ref",
      operation: op("getCustomer", { responses: error400({ $ref: "#/components/schemas/Codes" }) }),
      fragment: "err_code on 400: `SHARED`.",
    },
    {
      behaviour: "an err_code value listed twice is documented once",
      operation: op("getCustomer", { responses: error400({ enum: ["A", "B", "A", 7] }) }),
      fragment: "err_code on 400: `A`, `B`.",
    },
    {
      behaviour: "an operation whose spec file is not found links to the spec's folder",
      operation: op("getCustomer"),
      fragment: "@see {@link https://github.com/exchange-kit/exchange-kit/blob/main/openapi | getCustomer in the spec}",
    },
    {
      behaviour: "a comment end in the text is escaped",
      operation: op("getCustomer", { summary: "Gets a/*/b." }),
      fragment: "   * Gets a/*\\/b.\n",
    },
  ])("$behaviour", ({ operation, fragment }) => {
    expect(generateResources(specWith({ "/customers": { get: operation } }), repoRoot)["customers.ts"]).toContain(
      fragment,
    );
  });

  it("documents a group whose tag has no description by its tag alone", () => {
    const files = generateResources(specWith({ "/customers": { get: op("getCustomer") } }, []), repoRoot);
    expect(files["customers.ts"]).toContain(
      "/**\n * The Customers operations.\n */\nexport interface CustomersResource {",
    );
  });

  it("refuses two operations that get the same method of a group", () => {
    const spec = specWith({
      "/customer": { post: op("createCustomer") },
      "/customers": { post: op("createCustomers") },
    });
    expect(() => generateResources(spec, repoRoot)).toThrow("two operations map to customers.create");
  });

  it("refuses an operation without a known x-idempotency class", () => {
    const spec = specWith({ "/customers": { get: op("getCustomer", { "x-idempotency": "maybe" }) } });
    expect(() => generateResources(spec, repoRoot)).toThrow(
      'getCustomer: x-idempotency must be one of safe, safe-by-reference, safe-delete, guarded, unsafe, got "maybe"',
    );
  });
});

describe("the sandbox's query parameters", () => {
  const parameter = { name: "asset", in: "query", required: true, schema: { type: "string" } };
  const published: OpenApiSpec = { paths: { "/rate": { get: op("fetchRate") } } };
  const rateOperation = (spec: OpenApiSpec) => (spec.paths?.["/rate"] as PathItem | undefined)?.get;
  const sandbox: OpenApiSpec = {
    paths: { "/rate": { get: op("fetchRate", { "x-sandbox-parameters": [parameter] }) } },
  };

  it("are taken from the sandbox's spec onto the published operation", () => {
    const merged = withSandboxParameters(published, sandbox);
    expect(rateOperation(merged)?.["x-sandbox-parameters"]).toEqual([parameter]);
  });

  it("leave the published spec it was given unchanged", () => {
    withSandboxParameters(published, sandbox);
    expect(rateOperation(published)?.["x-sandbox-parameters"]).toBeUndefined();
  });
});
