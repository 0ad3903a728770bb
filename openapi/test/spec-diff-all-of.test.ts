// A schema extended with `allOf` instead of repeated (the remittance quotation body is the payout quotation body
// plus two members) validates the same, so the diff must read the rewrite as no change, and still see a real change
// made through either part.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffSpecs } from "../spec-diff/diff.ts";
import { dropRestatedAlternativeMembers, mergeAllOf } from "../spec-diff/merge-all-of.ts";
import type { JsonObject } from "../spec-diff/types.ts";
import { fixtures } from "./helpers.js";

const base = (): any => JSON.parse(readFileSync(join(fixtures, "spec-diff", "base.json"), "utf8"));
const body = (doc: any) => doc.paths["/customers"].post.requestBody.content["application/json"].schema;

/** The request body moved into a component `Base`, and the body written as `Base` plus a required `remitter`. */
function extended(): any {
  const doc = base();
  doc.components.schemas.Base = body(doc);
  doc.paths["/customers"].post.requestBody.content["application/json"].schema = {
    title: "Extended",
    allOf: [
      { $ref: "#/components/schemas/Base" },
      { type: "object", required: ["remitter"], properties: { remitter: { type: "string" } } },
    ],
  };
  return doc;
}

/** The same body as `extended()`, every member written out. */
function repeated(): any {
  const doc = base();
  const schema = body(doc);
  schema.title = "Extended";
  schema.required = [...schema.required, "remitter"];
  schema.properties.remitter = { type: "string" };
  return doc;
}

describe("a schema extended with allOf", () => {
  it("reads as no change against the same schema written out", () => {
    expect(diffSpecs(repeated(), extended())).toEqual([]);
    expect(diffSpecs(extended(), repeated())).toEqual([]);
  });

  it("still reports a member removed from the shared part", () => {
    const after = extended();
    delete after.components.schemas.Base.properties.email;
    expect(diffSpecs(repeated(), after).map((c) => [c.rule, c.breaking])).toContainEqual([
      "request-member-removed",
      true,
    ]);
  });

  it("still reports a member made required in the extending part", () => {
    const after = extended();
    body(after).allOf[1].required.push("country");
    expect(diffSpecs(repeated(), after).map((c) => c.rule)).toContain("request-member-became-required");
  });

  it("reads a new member that requires a declared member as that member made required", () => {
    const after = base();
    body(after).allOf = [{ required: ["email"] }];
    expect(diffSpecs(base(), after)).toEqual([
      expect.objectContaining({ rule: "request-member-became-required", breaking: true }),
    ]);
  });

  it("is left as written when its members declare one member two ways", () => {
    const schema = { allOf: [{ properties: { a: { type: "string" } } }, { properties: { a: { type: "integer" } } }] };
    expect(mergeAllOf({}, schema)).toBe(schema);
  });

  it("is left as written when a member holds a keyword other than members, required and alternatives", () => {
    const schema: JsonObject = { allOf: [{ properties: { a: {} } }, { additionalProperties: false }] };
    expect(mergeAllOf({}, schema)).toBe(schema);
  });

  it("keeps the outer schema's annotations, not its members'", () => {
    const merged = mergeAllOf({}, { title: "Outer", allOf: [{ title: "Inner", required: ["a"] }] });
    expect(merged).toEqual({ title: "Outer", required: ["a"] });
  });
});

describe("an alternative that restates a declared member", () => {
  it("accepts what it accepts without the restatement, so dropping it is no change", () => {
    const before = base();
    body(before).oneOf = [
      { required: ["email"], properties: { email: { description: "The email." } } },
      { required: ["country"] },
    ];
    const after = base();
    body(after).oneOf = [{ required: ["email"] }, { required: ["country"] }];
    expect(diffSpecs(before, after)).toEqual([]);
  });

  it("keeps a restatement that constrains", () => {
    const schema = {
      properties: { email: { type: "string" } },
      oneOf: [{ required: ["email"], properties: { email: { minLength: 3 } } }],
    };
    expect(dropRestatedAlternativeMembers(schema)).toBe(schema);
  });
});
