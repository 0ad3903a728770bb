// The spec diff's comparers one by one: each decision as a table, and a fixture for each rule that
// spec-diff.test.ts has none for (same base fixture, one edit each).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffSpecs } from "../spec-diff/diff.ts";
import { additionalMembersBreak } from "../spec-diff/schema-rules/additional-properties.ts";
import { acceptsMore } from "../spec-diff/schema-rules/composition.ts";
import { isTighter } from "../spec-diff/schema-rules/bounds.ts";
import { addedRuleName } from "../spec-diff/schema-rules/properties.ts";
import { defaultChangeBreaks } from "../spec-diff/schema-rules/default.ts";
import { patternVerdict } from "../spec-diff/schema-rules/pattern.ts";
import { losesType } from "../spec-diff/schema-rules/type.ts";
import { enumRuleName } from "../spec-diff/schema-rules/values.ts";
import { exitCodeOf } from "../spec-diff/exit-code.ts";
import { sectionOf, verdictLine } from "../spec-diff/report.ts";
import { deprecationChange } from "../spec-diff/steps/deprecation.ts";
import { pathRenames, requiredChange } from "../spec-diff/steps/parameters.ts";
import { responseHeaderChange } from "../spec-diff/steps/response-headers.ts";
import { securityChange } from "../spec-diff/steps/security.ts";
import type { Change } from "../spec-diff/types.ts";
import { fixtures } from "./helpers.js";

const base = (): any => JSON.parse(readFileSync(join(fixtures, "spec-diff", "base.json"), "utf8"));
const body = (doc: any) => doc.paths["/customers"].post.requestBody.content["application/json"].schema;
const getCustomer = (doc: any) => doc.paths["/customers/{customer_id}"].get;
const customer = (doc: any) => doc.components.schemas.Customer;

describe("schema comparer decisions", () => {
  const set = (...types: string[]) => new Set(types);
  it.each([
    ["any type to string", undefined, set("string"), true],
    ["string to any type", set("string"), undefined, false],
    ["string to string or null", set("string"), set("string", "null"), false],
    ["string or null to string", set("string", "null"), set("string"), true],
    ["string to integer", set("string"), set("integer"), true],
  ])("a type change from %s loses a type: %s", (_name, from, to, loses) => {
    expect(losesType(from, to)).toBe(loses);
  });

  it.each([
    [true, true, "request-enum-narrowed"],
    [true, false, "request-enum-widened"],
    [false, true, "response-enum-narrowed"],
    [false, false, "response-enum-widened"],
  ])("names an enum change (request %s, narrowed %s) %s", (request, narrowed, name) => {
    expect(enumRuleName(request, narrowed)).toBe(name);
  });

  it.each([
    ["a new lower bound", true, undefined, 1, true],
    ["a raised lower bound", true, 1, 2, true],
    ["a lowered lower bound", true, 2, 1, false],
    ["a removed lower bound", true, 1, undefined, false],
    ["a new upper bound", false, undefined, 9, true],
    ["a lowered upper bound", false, 9, 5, true],
    ["a raised upper bound", false, 5, 9, false],
  ])("judges %s tighter: %s", (_name, lower, before, after, tighter) => {
    expect(isTighter(lower as boolean, before, after)).toBe(tighter);
  });

  it.each([
    ["a request object that closes", true, undefined, false, true],
    ["a request object that gains a member schema", true, true, { type: "string" }, true],
    ["a request object that opens", true, false, undefined, false],
    ["a response object that opens", false, false, true, true],
    ["a response object whose member schema is dropped for true", false, { type: "string" }, true, true],
    ["a response object whose member schema is dropped", false, { type: "string" }, undefined, false],
    ["a response object that closes", false, undefined, false, false],
  ])("judges %s breaking: %s", (_name, request, before, after, breaking) => {
    expect(additionalMembersBreak(request as boolean, before as never, after as never)).toBe(breaking);
  });

  it.each([
    [true, true, "request-member-added-required"],
    [true, false, "request-member-added-optional"],
    [false, true, "response-member-added"],
    [false, false, "response-member-added"],
  ])("names a member added (request %s, required %s) %s", (request, required, name) => {
    expect(addedRuleName(request, required)).toBe(name);
  });

  it.each([
    [{}, { required: true }, "parameter-became-required"],
    [{ required: true }, { required: false }, "parameter-became-optional"],
    [{ required: true }, { required: true }, undefined],
    [{}, { required: false }, undefined],
  ])("names a parameter's required change from %j to %j: %s", (before, after, rule) => {
    expect(requiredChange(before, after)?.rule).toBe(rule);
  });

  it.each([
    ["a request default changed", true, "IND", "USA", true],
    ["a request default removed", true, "IND", undefined, true],
    ["a request default added", true, undefined, "IND", false],
    ["a response default changed", false, "IND", "USA", false],
    ["a response default removed", false, "IND", undefined, false],
  ])("judges %s breaking: %s", (_name, request, before, after, breaking) => {
    expect(defaultChangeBreaks(request as boolean, before, after)).toBe(breaking);
  });

  it.each([
    [true, "narrower", "pattern-tightened", true, false],
    [true, "wider", "pattern-loosened", false, false],
    [false, "narrower", "pattern-tightened", false, false],
    [false, "wider", "pattern-loosened", true, false],
    [true, "equal", "pattern-rewritten", false, false],
    [true, "unknown", "pattern-changed", false, true],
    [false, "unknown", "pattern-changed", false, true],
  ] as const)(
    "classes a pattern change (request %s, %s strings) as %s, breaking %s, review %s",
    (request, relation, rule, breaking, review) => {
      expect(patternVerdict(request, relation)).toEqual({ rule, breaking, review });
    },
  );

  const K = "apiKey header X-API-KEY";
  const S = "apiKey header X-SIGNATURE";
  const B = "http bearer";
  it.each([
    ["a credential dropped", "loosened", [[K, S]], [[K]]],
    ["the operation made public", "loosened", [[K, S]], []],
    ["an anonymous alternative added", "loosened", [[K, S]], [[K, S], []]],
    ["a credential added", "tightened", [[K]], [[K, S]]],
    ["a public operation secured", "tightened", [], [[K]]],
    ["an alternative dropped", "tightened", [[K], [B]], [[K]]],
    ["a credential replaced", "changed", [[K]], [[B]]],
  ])("classes %s as %s", (_name, change, before, after) => {
    expect(securityChange(before as string[][], after as string[][])).toBe(change);
  });

  it.each([
    ["/bank/{customer_id}", "/bank/{customerId}", [["path customer_id", "path customerId"]]],
    ["/bank/{a}/{b}", "/bank/{a}/{bank}", [["path b", "path bank"]]],
    ["/bank/{a}", "/bank/{a}", []],
    ["/bank/{a}", "/bank/{a}/{b}", []],
  ])("finds the path parameters renamed from %s to %s", (before, after, renames) => {
    expect([...pathRenames(before, after)]).toEqual(renames);
  });

  it.each([
    [{}, { deprecated: true }, "operation-deprecated"],
    [{ deprecated: true }, {}, "operation-undeprecated"],
    [{ deprecated: false }, {}, undefined],
  ])("names a deprecation change from %j to %j: %s", (before, after, rule) => {
    expect(deprecationChange("operation", before, after)?.rule).toBe(rule);
  });
});

describe("composition decisions", () => {
  it.each([
    ["a first anyOf/oneOf", 0, 2, true, false],
    ["a removed anyOf/oneOf", 2, 0, true, true],
    ["a new alternative", 2, 3, true, true],
    ["a removed alternative", 3, 2, true, false],
    ["a first allOf", 0, 1, false, false],
    ["a removed allOf", 1, 0, false, true],
    ["a new allOf member", 1, 2, false, false],
    ["a removed allOf member", 2, 1, false, true],
  ])(
    "judges whether %s accepts more: %s -> %s members (alternatives: %s) gives %s",
    (_name, before, after, widens, more) => {
      expect(acceptsMore(before, after, widens)).toBe(more);
    },
  );
});

describe("response header decisions", () => {
  const header = (required: boolean) => ({ required });
  it.each([
    ["a required header removed", header(true), undefined, "response-header-removed", true],
    ["an optional header removed", header(false), undefined, "response-header-removed", false],
    ["a header added", undefined, header(false), "response-header-added", false],
    ["a header no longer required", header(true), header(false), "response-header-became-optional", true],
    ["a header now required", header(false), header(true), "response-header-became-required", false],
  ])("classes %s as %s (breaking: %s)", (_name, before, after, rule, breaking) => {
    expect(responseHeaderChange(before, after)).toMatchObject({ rule, breaking });
  });

  it("finds nothing in a header kept as it was", () => {
    expect(responseHeaderChange(header(true), header(true))).toBeUndefined();
  });
});

describe("the report's sections and the exit code", () => {
  const change = (extra: Partial<Change>): Change => ({
    rule: "r",
    breaking: false,
    where: "w",
    message: "m",
    ...extra,
  });
  it.each([
    ["a breaking security change", { breaking: true, security: true as const }, "security"],
    ["a security change that breaks nobody", { security: true as const }, "security"],
    ["a breaking change", { breaking: true }, "breaking"],
    ["a change to review", { review: true as const }, "review"],
    ["any other change", {}, "other"],
  ])("lists %s under %s", (_name, extra, section) => {
    expect(sectionOf(change(extra))).toBe(section);
  });

  it("counts the security changes and the changes to review in the verdict", () => {
    const changes = [change({ breaking: true }), change({ security: true }), change({ review: true })];
    expect(verdictLine(changes)).toBe("3 changes, **1 breaking** for clients, 1 security change, 1 to review.");
  });

  const missing = [{ name: "p", version: "0.1.0", needed: "minor" as const, found: undefined, ok: false }];
  const present = [{ ...missing[0]!, found: "minor" as const, ok: true }];
  it.each([
    { code: 1, name: "a breaking change", changes: [change({ breaking: true })], prMode: false },
    {
      code: 0,
      name: "only changes to review and security changes that break nobody",
      changes: [change({ review: true }), change({ security: true })],
      prMode: false,
    },
    {
      code: 0,
      name: "a breaking change with its changesets (PR mode)",
      changes: [change({ breaking: true })],
      prMode: true,
      changesets: present,
    },
    {
      code: 1,
      name: "a breaking change without its changesets (PR mode)",
      changes: [change({ breaking: true })],
      prMode: true,
      changesets: missing,
    },
  ])("exits $code for $name", ({ code, changes, prMode, changesets }) => {
    expect(exitCodeOf(changes, { prMode, ...(changesets ? { changesets } : {}) })).toBe(code);
  });
});

/** The customer ID as a component referenced from the path parameter and the record (with a description beside). */
function useReferencedId(d: any): void {
  d.components.schemas.Id = { type: "string", format: "uuid" };
  getCustomer(d).parameters[0].schema = { $ref: "#/components/schemas/Id" };
  customer(d).properties.id = { $ref: "#/components/schemas/Id", description: "The customer's ID." };
}

const requestIdHeader = (required: boolean) => ({ required, schema: { type: "string" } });

interface Fixture {
  rule: string;
  breaking: boolean;
  /** An edit of the base fixture before the change, where the base lacks what the change needs. */
  before?: (doc: any) => void;
  edit: (doc: any) => void;
}

// Rules (or breaking verdicts of a rule) without a fixture in spec-diff.test.ts.
const MORE_FIXTURES: Record<string, Fixture> = {
  "a schema replaced by a boolean schema": {
    rule: "schema-changed",
    breaking: true,
    edit: (d) => (customer(d).properties.id = true),
  },
  "a parameter that became optional": {
    rule: "parameter-became-optional",
    breaking: false,
    edit: (d) => (getCustomer(d).parameters[0].required = false),
  },
  "a new optional request body": {
    rule: "request-body-added-optional",
    breaking: false,
    edit: (d) => (getCustomer(d).requestBody = { content: { "application/json": { schema: { type: "object" } } } }),
  },
  "a request body that became required": {
    rule: "request-body-became-required",
    breaking: true,
    before: (d) => (d.paths["/customers"].post.requestBody.required = false),
    edit: (d) => (d.paths["/customers"].post.requestBody.required = true),
  },
  "a response member that is now always present": {
    rule: "response-member-became-required",
    breaking: false,
    edit: (d) => customer(d).required.push("tags"),
  },
  "an opened response object": {
    rule: "additional-members-changed",
    breaking: true,
    before: (d) => (customer(d).additionalProperties = false),
    edit: (d) => (customer(d).additionalProperties = true),
  },
  "a new allOf member on a request": {
    rule: "composition-changed",
    breaking: true,
    // A constraint the comparers cannot merge into the schema (a member with only `required` is merged: below).
    edit: (d) => (body(d).allOf = [{ minProperties: 2 }]),
  },
  "an enum that appeared on a request member": {
    rule: "request-enum-narrowed",
    breaking: true,
    edit: (d) => (body(d).properties.email.enum = ["a@b.example"]),
  },
  "an enum that disappeared from a response member": {
    rule: "response-enum-widened",
    breaking: true,
    edit: (d) => delete customer(d).properties.status.enum,
  },
  "a new upper bound on a response member": {
    rule: "constraint-tightened",
    breaking: false,
    edit: (d) => (customer(d).properties.tags.maxItems = 5),
  },
  "a removed rule on a request": {
    rule: "rule-changed",
    breaking: false,
    before: (d) => (body(d).properties.reference.not = { const: "none" }),
    edit: (d) => delete body(d).properties.reference.not,
  },
  "a new security scheme": {
    rule: "security-scheme-added",
    breaking: false,
    edit: (d) => (d.components.securitySchemes.Bearer = { type: "http", scheme: "bearer" }),
  },
  "a new webhook": {
    rule: "webhook-added",
    breaking: false,
    edit: (d) =>
      (d.webhooks.PAYOUT = { post: { operationId: "payoutEvent", responses: { 200: { description: "ok" } } } }),
  },
  "a pattern added beside a parameter's $ref": {
    rule: "pattern-tightened",
    breaking: true,
    before: useReferencedId,
    edit: (d) => (getCustomer(d).parameters[0].schema.pattern = "^[0-9a-f-]+$"),
  },
  "a pattern added beside a request member's $ref": {
    rule: "pattern-tightened",
    breaking: true,
    before: (d) => {
      useReferencedId(d);
      body(d).properties.parent_id = { $ref: "#/components/schemas/Id", description: "The parent." };
    },
    edit: (d) => (body(d).properties.parent_id.pattern = "^[0-9a-f-]+$"),
  },
  "a maximum length added beside a response member's $ref": {
    rule: "constraint-tightened",
    breaking: false,
    before: useReferencedId,
    edit: (d) => (customer(d).properties.id.maxLength = 36),
  },
  "a first anyOf on a response object": {
    rule: "composition-changed",
    breaking: false,
    edit: (d) => (customer(d).anyOf = [{ required: ["tags"] }, { required: ["parent"] }]),
  },
  "a required response header removed": {
    rule: "response-header-removed",
    breaking: true,
    before: (d) => (getCustomer(d).responses["200"].headers = { "X-Request-Id": requestIdHeader(true) }),
    edit: (d) => delete getCustomer(d).responses["200"].headers,
  },
  "an optional response header removed": {
    rule: "response-header-removed",
    breaking: false,
    before: (d) => (getCustomer(d).responses["200"].headers = { "X-Request-Id": requestIdHeader(false) }),
    edit: (d) => delete getCustomer(d).responses["200"].headers,
  },
  "a response header added": {
    rule: "response-header-added",
    breaking: false,
    edit: (d) => (getCustomer(d).responses["200"].headers = { "X-Request-Id": requestIdHeader(true) }),
  },
  "a response header no longer required": {
    rule: "response-header-became-optional",
    breaking: true,
    before: (d) => (getCustomer(d).responses["200"].headers = { "X-Request-Id": requestIdHeader(true) }),
    edit: (d) => (getCustomer(d).responses["200"].headers["X-Request-Id"].required = false),
  },
  "a response header now required": {
    rule: "response-header-became-required",
    breaking: false,
    before: (d) => (getCustomer(d).responses["200"].headers = { "X-Request-Id": requestIdHeader(false) }),
    edit: (d) => (getCustomer(d).responses["200"].headers["X-Request-Id"].required = true),
  },
  "a response header whose type changed": {
    rule: "type-changed",
    breaking: true,
    before: (d) => (getCustomer(d).responses["200"].headers = { "X-Request-Id": requestIdHeader(true) }),
    edit: (d) => (getCustomer(d).responses["200"].headers["X-Request-Id"].schema = { type: "integer" }),
  },
};

describe("spec diff rules without a fixture in spec-diff.test.ts", () => {
  it.each(Object.entries(MORE_FIXTURES))("classes %s", (_name, { rule, breaking, before, edit }) => {
    const original = base();
    before?.(original);
    const changed = structuredClone(original);
    edit(changed);
    const changes = diffSpecs(original, changed);
    expect(changes.map((c) => [c.rule, c.breaking])).toContainEqual([rule, breaking]);
    if (!breaking) expect(changes.filter((c) => c.breaking)).toEqual([]);
  });

  it("compares two schemas of other members as the member `*`", () => {
    const before = base();
    body(before).additionalProperties = { type: "string" };
    const after = base();
    body(after).additionalProperties = { type: "integer" };
    expect(diffSpecs(before, after)).toEqual([
      expect.objectContaining({ rule: "type-changed", where: "POST /customers request body: *" }),
    ]);
  });

  it("names a oneOf member by oneOf", () => {
    const before = base();
    body(before).oneOf = [{ required: ["email"] }, { required: ["country"] }];
    const after = base();
    body(after).oneOf = [{ required: ["email", "reference"] }, { required: ["country"] }];
    expect(diffSpecs(before, after)).toEqual([
      expect.objectContaining({
        rule: "request-member-became-required",
        where: "POST /customers request body (oneOf 1).reference",
      }),
    ]);
  });

  it("reports a keyword beside a $ref where the reference is used, not under the component", () => {
    const before = base();
    useReferencedId(before);
    const after = structuredClone(before);
    getCustomer(after).parameters[0].schema.pattern = "^[0-9a-f-]+$";
    expect(diffSpecs(before, after)).toEqual([
      expect.objectContaining({
        rule: "pattern-tightened",
        where: "GET /customers/{customer_id} parameter path customer_id:",
      }),
    ]);
  });

  it("reads a description beside a $ref as no change", () => {
    const before = base();
    useReferencedId(before);
    const after = structuredClone(before);
    customer(after).properties.id.description = "Another description.";
    expect(diffSpecs(before, after)).toEqual([]);
  });

  it("matches response headers regardless of case", () => {
    const before = base();
    getCustomer(before).responses["200"].headers = { "X-Request-Id": requestIdHeader(true) };
    const after = base();
    getCustomer(after).responses["200"].headers = { "x-request-id": requestIdHeader(true) };
    expect(diffSpecs(before, after)).toEqual([]);
  });

  it("compares composition members by position, each at its own place", () => {
    const before = base();
    body(before).oneOf = [{ required: ["email"] }, { required: ["country"] }];
    const after = base();
    body(after).anyOf = [{ required: ["email"] }, { required: ["country", "reference"] }];
    expect(diffSpecs(before, after)).toEqual([
      expect.objectContaining({
        rule: "request-member-became-required",
        where: "POST /customers request body (anyOf 2).reference",
      }),
    ]);
  });
});
