import { describe, expect, it } from "vitest";
import { CATALOG } from "../src/catalog.js";
import { signTestWebhook, verifyWebhook } from "../src/index.js";
import { apiKey, apiSecret, now } from "./support/fixtures.js";
import { specEventSchemas, specExamples } from "./support/spec.js";

const examples = specExamples();
const schemas = specEventSchemas();

describe("the spec's webhook examples", () => {
  it("are all read (one per catalog pair at least)", () => {
    expect(examples.length).toBeGreaterThanOrEqual(15);
    const pairs = new Set(examples.map((e) => `${e.value.type} ${e.value.event}`));
    expect(pairs.size).toBe(15);
  });

  it.each(examples.map((e) => [`${e.webhook}/${e.name}`, e] as const))(
    "%s verifies and parses, in strict mode, to its (type, event) variant",
    async (_, { webhook, value }) => {
      const { body, headers } = await signTestWebhook({ event: value, apiKey, apiSecret, timestamp: now });
      const event = await verifyWebhook({ body, headers, apiKey, apiSecret, now, strict: true });
      expect(event.known).toBe(true);
      expect(event.type.toLowerCase()).toBe(webhook);
      expect(event).toEqual({ ...value, known: true });
    },
  );
});

describe("the built-in catalog", () => {
  const catalogPairs = Object.entries(CATALOG).flatMap(([type, events]) =>
    Object.keys(events).map((e) => `${type} ${e}`),
  );

  it("has exactly the spec's (type, event) pairs", () => {
    expect(catalogPairs.sort()).toEqual(schemas.map((s) => `${s.type} ${s.event}`).sort());
  });

  it.each(schemas.map((s) => [s.name, s] as const))("matches %s's metadata keys, enums and consts", (_, schema) => {
    const rules = (CATALOG as Record<string, Record<string, Record<string, unknown>>>)[schema.type]![schema.event]!;
    const required = new Set(schema.metadata.required ?? []);
    const [condition] = Object.entries(schema.metadata.if?.properties ?? {});
    const expected: Record<string, unknown> = {};
    for (const [key, property] of Object.entries(schema.metadata.properties ?? {})) {
      const nullable = Array.isArray(property.type) && property.type.includes("null");
      const values = property.enum ?? (property.const !== undefined ? [property.const] : undefined);
      const conditional = condition && schema.metadata.then?.required?.includes(key);
      expected[key] = {
        ...(!required.has(key) && { optional: true }),
        ...(nullable && { nullable: true }),
        ...(values && { values }),
        ...(conditional && { requiredWhen: { key: condition[0], value: condition[1].const } }),
      };
    }
    expect(rules).toEqual(expected);
  });

  it("requires rfi_link exactly where the spec's if/then does (PAYOUT IN_REVIEW, Request for information)", () => {
    const conditional = schemas.filter((s) => s.metadata.then);
    expect(conditional.map((s) => s.name)).toEqual(["PayoutInReviewEvent"]);
    expect(conditional[0]!.metadata.if?.properties?.reason?.const).toBe("Request for information");
    expect(conditional[0]!.metadata.then?.required).toEqual(["rfi_link"]);
  });
});
