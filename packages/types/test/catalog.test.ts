// The catalog generator (scripts/catalog.ts) on small specs of its own, one JSON Schema form per row, and the
// committed catalog against an independent reading of the exchange spec (the webhook bodies' discriminators).
import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { type CatalogSpec, generateCatalog, readCatalog } from "../scripts/catalog.ts";
import * as catalog from "../src/generated/catalog.js";
import { spec } from "./support/spec.js";

type Schema = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** An event schema pinning type and event, with this metadata schema. */
const event = (type: string, name: string, metadata: Schema = { type: "object" }): Schema => ({
  type: "object",
  properties: { type: { type: "string", const: type }, event: { type: "string", const: name }, metadata },
});

/** A spec with one webhook per type, each body a oneOf of the given event components. */
function specWith(webhooks: Record<string, string[]>, schemas: Record<string, Schema>): CatalogSpec {
  const bodies = Object.fromEntries(
    Object.entries(webhooks).map(([type, variants]) => [`${type}Event`, { oneOf: variants.map(ref) }]),
  );
  return {
    webhooks: Object.fromEntries(
      Object.keys(webhooks).map((type) => [
        type,
        { post: { requestBody: { content: { "application/json": { schema: ref(`${type}Event`) } } } } },
      ]),
    ),
    components: { schemas: { ...bodies, ...schemas } },
  };
}

/** The metadata rules read from one event whose metadata schema is `metadata`. */
const rulesOf = (metadata: Schema) =>
  readCatalog(specWith({ T: ["E"] }, { E: event("T", "E", { type: "object", ...metadata }) })).metadata.T!.E;

describe("the catalog generator", () => {
  it("lists the event types in the order of the webhooks, and each type's events in the order of its oneOf", () => {
    const read = readCatalog(
      specWith(
        { PAYOUT: ["PayoutDone", "PayoutHeld"], BANK: ["BankOk"] },
        { PayoutDone: event("PAYOUT", "DONE"), PayoutHeld: event("PAYOUT", "HELD"), BankOk: event("BANK", "OK") },
      ),
    );
    expect(read.eventTypes).toEqual(["PAYOUT", "BANK"]);
    expect(read.events).toEqual({ PAYOUT: ["DONE", "HELD"], BANK: ["OK"] });
  });

  it.each([
    ["a required string", { required: ["k"], properties: { k: { type: "string" } } }, { k: {} }],
    ["an absent-or-string key", { properties: { k: { type: "string" } } }, { k: { optional: true } }],
    [
      "a string or null",
      { required: ["k"], properties: { k: { type: ["string", "null"] } } },
      { k: { nullable: true } },
    ],
    [
      "an enum",
      { required: ["k"], properties: { k: { type: "string", enum: ["A", "B"] } } },
      { k: { values: ["A", "B"] } },
    ],
    ["a const", { required: ["k"], properties: { k: { type: "string", const: "only" } } }, { k: { values: ["only"] } }],
    ["a $ref to an enum", { required: ["k"], properties: { k: ref("Reason") } }, { k: { values: ["X", "Y"] } }],
    [
      "a key an if/then requires when another key has a value",
      {
        required: ["reason"],
        properties: { reason: { type: "string", enum: ["ask", "hold"] }, link: { type: "string" } },
        if: { required: ["reason"], properties: { reason: { const: "ask" } } },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema if/then, never awaited.
        then: { required: ["link"] },
      },
      {
        reason: { values: ["ask", "hold"] },
        link: { optional: true, requiredWhen: { key: "reason", value: "ask" } },
      },
    ],
  ])("reads %s into its metadata rule", (_, metadata, rules) => {
    const spec = specWith(
      { T: ["E"] },
      { E: event("T", "E", { type: "object", ...metadata }), Reason: { type: "string", enum: ["X", "Y"] } },
    );
    expect(readCatalog(spec).metadata.T!.E).toEqual(rules);
  });

  it("gives an event without metadata keys an empty rule set", () => {
    expect(rulesOf({})).toEqual({});
  });

  it.each([
    ["a number", { required: ["k"], properties: { k: { type: "integer" } } }, /must be a string/],
    ["an object", { required: ["k"], properties: { k: { type: "object" } } }, /must be a string/],
    ["a required key it does not describe", { required: ["k"] }, /requires k but does not describe it/],
    [
      "an if/then of another form",
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema if/then, never awaited.
      { properties: { k: { type: "string" } }, if: { required: ["k"] }, then: { required: ["k"] } },
      /only "if one key has a value/,
    ],
  ])("stops on metadata holding %s rather than describe it wrongly", (_, metadata, message) => {
    expect(() => rulesOf(metadata)).toThrow(message);
  });

  it("stops on an event variant that does not pin its event with const", () => {
    const loose = { type: "object", properties: { type: { const: "T" }, event: { type: "string" } } };
    expect(() => readCatalog(specWith({ T: ["E"] }, { E: loose }))).toThrow(/must pin type and event/);
  });

  it("stops on a (type, event) pair described twice", () => {
    expect(() => readCatalog(specWith({ T: ["A", "B"] }, { A: event("T", "E"), B: event("T", "E") }))).toThrow(
      /T E is described twice/,
    );
  });

  it("follows a reference to a reference", () => {
    const read = readCatalog({
      components: {
        schemas: {
          Order: { type: "object", properties: { status: ref("OrderStatus") } },
          OrderStatus: ref("Status"),
          Status: { type: "string", enum: ["NEW"] },
        },
      },
    });
    expect(read.statuses).toEqual({ Order: ["NEW"] });
  });

  it("stops on a reference it cannot resolve", () => {
    expect(() => readCatalog(specWith({ T: ["E"] }, {}))).toThrow("Unresolvable reference #/components/schemas/E");
  });

  it("lists the enumerated status and *_status properties of the components, through $ref, and no open status", () => {
    const read = readCatalog({
      components: {
        schemas: {
          Order: { type: "object", properties: { status: { type: "string", enum: ["NEW", "DONE"] } } },
          Account: { type: "object", properties: { account_status: ref("AccountStatus") } },
          AccountStatus: { type: "string", enum: ["OPEN", "CLOSED"] },
          Person: { type: "object", properties: { status: { type: "string" } } },
          Note: { type: "object", properties: { state: { type: "string", enum: ["A"] } } },
        },
      },
    });
    expect(read.statuses).toEqual({ Order: ["NEW", "DONE"], Account: ["OPEN", "CLOSED"] });
  });

  it("refuses a component schema named like one of the catalog's types", () => {
    expect(() => generateCatalog({ components: { schemas: { RecordStatus: { type: "string" } } } })).toThrow(
      /RecordStatus would clash/,
    );
  });

  it("writes a module whose values are the catalog it read", () => {
    const source = generateCatalog(
      specWith(
        { T: ["E"] },
        { E: event("T", "E", { type: "object", required: ["why"], properties: { why: { enum: ["a b", "c"] } } }) },
      ),
    );
    const js = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const exports: Record<string, unknown> = {};
    new Function("exports", js)(exports);
    expect(exports).toEqual({
      webhookEventTypes: ["T"],
      webhookEventsByType: { T: ["E"] },
      webhookMetadataRules: { T: { E: { why: { values: ["a b", "c"] } } } },
      recordStatuses: {},
    });
  });
});

describe("the committed catalog (src/generated/catalog.ts)", () => {
  const doc = spec();

  it("is what the generator writes from the bundled spec", () => {
    const committed = readFileSync(new URL("../src/generated/catalog.ts", import.meta.url), "utf8");
    expect(committed).toBe(generateCatalog(doc as CatalogSpec));
  });

  it("has each webhook's events exactly as its body's discriminator maps them", () => {
    const mapped = Object.fromEntries(
      Object.entries(doc.webhooks as Record<string, Schema>).map(([type, item]) => {
        const body = (
          item as { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }
        ).post.requestBody.content["application/json"]!.schema.$ref.split("/").pop()!;
        return [type, Object.keys(doc.components.schemas[body].discriminator.mapping)];
      }),
    );
    expect(catalog.webhookEventsByType).toEqual(mapped);
    expect(catalog.webhookEventTypes).toEqual(Object.keys(mapped));
  });

  it("has the failure, refund and review reasons the event schemas enumerate", () => {
    const reasons = catalog.webhookMetadataRules;
    expect(reasons.CUSTOMER.FAILED.failure_reason.values).toEqual(
      doc.components.schemas.CustomerFailedEvent.properties.metadata.properties.failure_reason.enum,
    );
    expect(reasons.BANK.FAILED.failure_reason.values).toEqual(
      doc.components.schemas.BankFailedEvent.properties.metadata.properties.failure_reason.enum,
    );
    expect(reasons.PAYOUT.IN_REVIEW.reason.values).toEqual(
      doc.components.schemas.PayoutInReviewEvent.properties.metadata.properties.reason.enum,
    );
  });

  it("has the order and bank account statuses the spec enumerates", () => {
    expect(catalog.recordStatuses.PayoutOrder).toEqual(doc.components.schemas.PayoutOrder.properties.status.enum);
    expect(catalog.recordStatuses.PayinOrder).toEqual(doc.components.schemas.PayinOrder.properties.status.enum);
    expect(catalog.recordStatuses.BankAccount).toEqual(doc.components.schemas.BankAccountStatus.enum);
  });
});
