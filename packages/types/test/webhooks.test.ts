import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { WebhookEventSchema, componentSchemas, webhookSchemas } from "../src/zod.js";
import { deref, isObject, listOperations, mediaExamples, schemaRefName, spec } from "./support/spec.js";

const doc = spec();
const webhooks = listOperations(doc, "webhooks");
const component = (name: string) => (componentSchemas as Record<string, z.ZodType>)[name]!;

/** The event component each (type, event) pair maps to, read from the discriminators of the webhook bodies. */
function variantsOf(bodyComponent: string): Map<string, string> {
  const schema = doc.components.schemas[bodyComponent];
  const out = new Map<string, string>();
  for (const [value, target] of Object.entries((schema.discriminator?.mapping ?? {}) as Record<string, string>)) {
    out.set(value, schemaRefName(target) ?? target);
  }
  return out;
}

const examples = webhooks.flatMap(({ key, operation }) => {
  const media = deref(doc, operation.requestBody)?.content?.["application/json"];
  const body = schemaRefName(media?.schema?.$ref)!;
  return mediaExamples(doc, media).map((ex) => ({
    webhook: key,
    body,
    name: ex.name,
    value: ex.value as Record<string, unknown>,
  }));
});
const allVariants = [...new Set(examples.flatMap((e) => [...variantsOf(e.body).values()]))];

describe("WebhookEventSchema", () => {
  it("has a body schema for every webhook of the spec", () => {
    expect(Object.keys(webhookSchemas)).toEqual(webhooks.map((w) => w.key));
  });

  it("is checked against at least one example per webhook and per event variant", () => {
    for (const { key } of webhooks)
      expect(
        examples.some((e) => e.webhook === key),
        key,
      ).toBe(true);
    const covered = new Set(examples.map((e) => variantsOf(e.body).get(String(e.value.event))));
    for (const variant of allVariants) expect(covered.has(variant), variant).toBe(true);
  });

  it.each(examples.map((e) => [`${e.webhook} ${e.name}`, e] as const))(
    "parses the webhook example %s into its own (type, event) variant, unchanged",
    (_label, e) => {
      const parsed = WebhookEventSchema.safeParse(e.value);
      expect(parsed.error?.issues).toBeUndefined();
      expect(parsed.data).toEqual(e.value);
      expect(parsed.data).toMatchObject({ type: e.value.type, event: e.value.event });
      const variant = variantsOf(e.body).get(String(e.value.event));
      expect(variant, "the example's event is in its body's discriminator mapping").toBeDefined();
      expect(component(variant!).safeParse(e.value).success).toBe(true);
      for (const other of allVariants.filter((v) => v !== variant)) {
        expect(component(other).safeParse(e.value).success, `${other} must reject it`).toBe(false);
      }
      expect((webhookSchemas as Record<string, z.ZodType>)[e.webhook]!.safeParse(e.value).success).toBe(true);
    },
  );

  it.each(examples.map((e) => [`${e.webhook} ${e.name}`, e] as const))(
    "rejects the webhook example %s with an unknown type, an unknown event, or no metadata",
    (_label, e) => {
      expect(WebhookEventSchema.safeParse({ ...e.value, type: "UNKNOWN" }).success).toBe(false);
      expect(WebhookEventSchema.safeParse({ ...e.value, event: "UNKNOWN" }).success).toBe(false);
      const { metadata: _metadata, ...withoutMetadata } = e.value;
      expect(WebhookEventSchema.safeParse(withoutMetadata).success).toBe(false);
    },
  );

  it("keeps metadata members the spec does not list", () => {
    const e = examples[0]!;
    const value = { ...e.value, metadata: { ...(isObject(e.value.metadata) ? e.value.metadata : {}), extra: "kept" } };
    expect(WebhookEventSchema.parse(value)).toEqual(value);
  });
});
