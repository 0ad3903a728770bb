import { canonicalize } from "@exchange-kit/signing";
import { describe, expect, it } from "vitest";
import { verifyWebhook, type ReceivedWebhookEvent, type WebhookVerificationError } from "../src/index.js";
import { apiKey, apiSecret, now, payoutInReview, signText } from "./support/fixtures.js";

async function receive(event: unknown, strict = false): Promise<ReceivedWebhookEvent> {
  const body = canonicalize(event);
  return verifyWebhook({ body, headers: await signText(body), apiKey, apiSecret, now, strict });
}

async function invalid(event: unknown, strict = false): Promise<WebhookVerificationError> {
  const error = (await receive(event, strict).catch((e: unknown) => e)) as WebhookVerificationError;
  expect(error.code).toBe("INVALID_EVENT");
  return error;
}

const withMetadata = (metadata: Record<string, unknown>) => ({ ...payoutInReview, metadata });

describe("events the catalog does not know", () => {
  it("a new type is returned as an unknown event, not thrown", async () => {
    const event = await receive({ ...payoutInReview, type: "WALLET", event: "CREATED", metadata: { chain: "tron" } });
    expect(event).toMatchObject({ known: false, type: "WALLET", event: "CREATED", metadata: { chain: "tron" } });
    expect(event.known === false && event.unknownReason).toBe("type WALLET is not in the catalog");
  });

  it("a new status of a known type is returned as an unknown event", async () => {
    const event = await receive({ ...payoutInReview, event: "CANCELLED", metadata: {} });
    expect(event).toMatchObject({ known: false, unknownReason: "PAYOUT event CANCELLED is not in the catalog" });
  });

  it("a known pair whose metadata breaks the catalog is an unknown event, with the reason", async () => {
    const event = await receive({
      ...payoutInReview,
      event: "FAILED",
      metadata: { client_reference_id: null, failure_reason: "Bank down" },
    });
    expect(event.known).toBe(false);
    expect(event.known === false && event.unknownReason).toMatch(
      /metadata.failure_reason must be one of Payout failed, got "Bank down"/,
    );
  });

  it("with strict, each of these throws INVALID_EVENT instead", async () => {
    await invalid({ ...payoutInReview, type: "WALLET" }, true);
    await invalid({ ...payoutInReview, event: "CANCELLED" }, true);
    const error = await invalid(
      withMetadata({ client_reference_id: "x", reason: "Under compliance review", rfi_link: 7 }),
      true,
    );
    expect(error.message).toMatch(/metadata.rfi_link must be a string/);
  });

  it("keys like __proto__ or toString are not mistaken for catalog entries", async () => {
    expect((await receive({ ...payoutInReview, type: "toString" })).known).toBe(false);
    expect((await receive({ ...payoutInReview, event: "__proto__" })).known).toBe(false);
  });
});

describe("the catalog's metadata rules", () => {
  it("every payout event has client_reference_id, possibly null", async () => {
    expect((await receive(withMetadata({ ...payoutInReview.metadata, client_reference_id: null }))).known).toBe(true);
    const { client_reference_id: _, ...without } = payoutInReview.metadata;
    const event = await receive(withMetadata(without));
    expect(event.known === false && event.unknownReason).toMatch(
      /client_reference_id must be a string or null, got undefined/,
    );
  });

  it("IN_REVIEW for a request for information needs rfi_link; under compliance review it may lack it", async () => {
    const { rfi_link: _, ...noLink } = payoutInReview.metadata;
    const rfi = await receive(withMetadata(noLink));
    expect(rfi.known === false && rfi.unknownReason).toMatch(/rfi_link is required with this reason/);
    expect((await receive(withMetadata({ ...noLink, reason: "Under compliance review" }))).known).toBe(true);
  });

  it("enumerated reasons accept only the catalog's values", async () => {
    const customer = { type: "CUSTOMER", id: payoutInReview.id, event: "FAILED", timestamp: "2026-03-01T09:12:40Z" };
    expect((await receive({ ...customer, metadata: { failure_reason: "KYC_FAILED" } })).known).toBe(true);
    expect((await receive({ ...customer, metadata: { failure_reason: "SANCTIONS" } })).known).toBe(false);
  });

  it("extra metadata keys the server adds are kept", async () => {
    const event = await receive(withMetadata({ ...payoutInReview.metadata, reviewer: "team-b" }));
    expect(event).toMatchObject({ known: true, metadata: { reviewer: "team-b" } });
  });
});

describe("the envelope (INVALID_EVENT even without strict)", () => {
  it.each([
    ["a body that is not an object", [payoutInReview], /not a JSON object/],
    ["a missing type", { ...payoutInReview, type: undefined }, /type must be a string/],
    ["an id that is not a UUID", { ...payoutInReview, id: "po_123" }, /id must be a UUID/],
    ["an event that is not a string", { ...payoutInReview, event: 3 }, /event must be a string/],
    ["a missing timestamp", { ...payoutInReview, timestamp: undefined }, /timestamp must be a string/],
    ["metadata that is not an object", { ...payoutInReview, metadata: [] }, /metadata must be an object/],
  ])("rejects %s", async (_, event, message) => {
    expect((await invalid(event)).message).toMatch(message);
  });
});
