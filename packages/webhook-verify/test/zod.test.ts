import { canonicalize } from "@exchange-kit/signing";
import { describe, expect, it } from "vitest";
import { verifyWebhook } from "../src/index.js";
import { validateEvent } from "../src/validate.js";
import { verifyWebhookWithZod, zodValidator } from "../src/zod.js";
import { apiKey, apiSecret, now, payoutInReview, signText } from "./support/fixtures.js";
import { specExamples } from "./support/spec.js";

async function delivery(event: unknown) {
  const body = canonicalize(event);
  return { body, headers: await signText(body), apiKey, apiSecret, now };
}

// Changes that each break, or keep, one rule of the catalog: both validators must agree on them.
// (Formats are zod's alone, so the other string is a URL: rfi_link accepts it, enums do not.)
function variants(example: Record<string, unknown>): unknown[] {
  const metadata = example.metadata as Record<string, unknown>;
  const out: unknown[] = [example, { ...example, metadata: { ...metadata, extra: 1 } }];
  for (const key of Object.keys(metadata)) {
    const { [key]: _, ...without } = metadata;
    out.push({ ...example, metadata: without });
    for (const value of [null, 7, "https://other.example/SOMETHING_ELSE"])
      out.push({ ...example, metadata: { ...metadata, [key]: value } });
  }
  out.push({ ...example, event: "CANCELLED" }, { ...example, type: "WALLET" });
  return out;
}

describe("the ./zod entry", () => {
  it("verifies every spec example as a catalog event", async () => {
    for (const { value } of specExamples()) {
      await expect(verifyWebhookWithZod({ ...(await delivery(value)), strict: true })).resolves.toEqual({
        ...value,
        known: true,
      });
    }
  });

  it("agrees with the built-in validator on which events are in the catalog (spec examples and their variants)", () => {
    let compared = 0;
    for (const { value } of specExamples()) {
      for (const variant of variants(value)) {
        const builtIn = validateEvent(structuredClone(variant), { strict: false });
        const zod = zodValidator(structuredClone(variant), { strict: false });
        expect(zod.known, JSON.stringify(variant)).toBe(builtIn.known);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it("also checks formats: a timestamp that is not ISO 8601, an rfi_link that is not a URL", async () => {
    const badTimestamp = { ...payoutInReview, timestamp: "yesterday" };
    const badLink = { ...payoutInReview, metadata: { ...payoutInReview.metadata, rfi_link: "not a url" } };
    for (const event of [badTimestamp, badLink]) {
      expect((await verifyWebhook(await delivery(event))).known).toBe(true); // the built-in one checks types only
      const viaZod = await verifyWebhookWithZod(await delivery(event));
      expect(viaZod).toMatchObject({ known: false, unknownReason: expect.stringMatching(/^PAYOUT IN_REVIEW: /) });
      await expect(verifyWebhookWithZod({ ...(await delivery(event)), strict: true })).rejects.toMatchObject({
        code: "INVALID_EVENT",
      });
    }
  });

  it("keeps types and statuses the catalog does not know as unknown events", async () => {
    const event = await verifyWebhook({
      ...(await delivery({ ...payoutInReview, type: "WALLET" })),
      validate: zodValidator,
    });
    expect(event).toMatchObject({ known: false, unknownReason: "type WALLET is not in the catalog" });
  });

  it("rejects a broken envelope with INVALID_EVENT, as the built-in validator does", async () => {
    await expect(verifyWebhookWithZod(await delivery({ ...payoutInReview, id: "x" }))).rejects.toMatchObject({
      code: "INVALID_EVENT",
    });
  });
});
