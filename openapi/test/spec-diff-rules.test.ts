// The spec diff's comparers one by one: each decision as a table, and a fixture for each rule that
// spec-diff.test.ts has none for (same base fixture, one edit each).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffSpecs } from "../spec-diff/diff.ts";
import { additionalMembersBreak } from "../spec-diff/schema-rules/additional-properties.ts";
import { isTighter } from "../spec-diff/schema-rules/bounds.ts";
import { addedRuleName } from "../spec-diff/schema-rules/properties.ts";
import { losesType } from "../spec-diff/schema-rules/type.ts";
import { enumRuleName } from "../spec-diff/schema-rules/values.ts";
import { requiredChange } from "../spec-diff/steps/parameters.ts";
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
});

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
    edit: (d) => (body(d).allOf = [{ required: ["email"] }]),
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
    before: (d) => (body(d).properties.reference.pattern = "^[a-z]+$"),
    edit: (d) => delete body(d).properties.reference.pattern,
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
