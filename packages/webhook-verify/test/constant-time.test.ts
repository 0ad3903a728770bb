import { canonicalize } from "@exchange-kit/signing";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { equalBit } from "../src/constant-time.js";
import { apiKey, apiSecret, now, payoutInReview, signText } from "./support/fixtures.js";

const computed = vi.hoisted(() => ({ calls: [] as { apiKey: string; canonicalBody: string }[], canonicalized: 0 }));

vi.mock("@exchange-kit/signing", async (importOriginal) => {
  const signing = await importOriginal<typeof import("@exchange-kit/signing")>();
  return {
    ...signing,
    computeSignature: (options: Parameters<typeof signing.computeSignature>[0]) => {
      const { canonicalBody } = options;
      const text = typeof canonicalBody === "string" ? canonicalBody : new TextDecoder().decode(canonicalBody);
      computed.calls.push({ apiKey: options.apiKey, canonicalBody: text });
      return signing.computeSignature(options);
    },
    canonicalizeText: (text: string) => {
      computed.canonicalized++;
      return signing.canonicalizeText(text);
    },
  };
});

const { verifyWebhook } = await import("../src/index.js");
const body = canonicalize(payoutInReview);
const credentials = [
  { apiKey, apiSecret },
  { apiKey: "ak_next", apiSecret: "sk_next" },
];

describe("signature checks do not stop at the first match", () => {
  beforeEach(() => {
    computed.calls.length = 0;
  });

  it("computes the signature for every credential even when the first one matches", async () => {
    const headers = await signText(body);
    computed.calls.length = 0;
    await verifyWebhook({ body, headers, credentials, now });
    expect(computed.calls.map((c) => c.apiKey)).toEqual([apiKey, "ak_next"]);
  });

  it("computes the raw form for every credential, then the canonical form of a re-serialized body for every credential", async () => {
    const headers = await signText(body);
    computed.calls.length = 0;
    const pretty = JSON.stringify(payoutInReview, null, 2);
    await verifyWebhook({ body: pretty, headers, credentials, now });
    expect(computed.calls).toEqual([
      { apiKey, canonicalBody: pretty },
      { apiKey: "ak_next", canonicalBody: pretty },
      { apiKey, canonicalBody: body },
      { apiKey: "ak_next", canonicalBody: body },
    ]);
  });

  it("never canonicalizes a body whose bytes match", async () => {
    const headers = await signText(body);
    computed.canonicalized = 0;
    await verifyWebhook({ body: new TextEncoder().encode(body), headers, apiKey, apiSecret, now });
    expect(computed.canonicalized).toBe(0);
  });

  it("rejects an unsigned body over 64 KB after one HMAC per credential, without canonicalizing it", async () => {
    const headers = await signText(body);
    const junk = JSON.stringify({ ...payoutInReview, metadata: { pad: "x".repeat(64 * 1024) } }, null, 2);
    computed.calls.length = 0;
    computed.canonicalized = 0;
    const rejected = verifyWebhook({ body: new TextEncoder().encode(junk), headers, credentials, now });
    await expect(rejected).rejects.toMatchObject({
      code: "INVALID_SIGNATURE",
      message: /over 64 KB, so only its bytes as received were checked/,
    });
    expect(computed.calls.map((c) => c.apiKey)).toEqual([apiKey, "ak_next"]);
    expect(computed.canonicalized).toBe(0);
  });

  it("still tries the canonical form of a re-serialized body of 64 KB or less", async () => {
    const event = { ...payoutInReview, metadata: { ...payoutInReview.metadata, pad: "x".repeat(60 * 1024) } };
    const headers = await signText(canonicalize(event));
    const pretty = JSON.stringify(event, null, 2);
    computed.canonicalized = 0;
    await expect(verifyWebhook({ body: pretty, headers, apiKey, apiSecret, now })).resolves.toMatchObject({
      known: true,
    });
    expect(computed.canonicalized).toBe(1);
  });

  it("computes one form only for a body already in canonical form", async () => {
    const headers = await signText(body);
    computed.calls.length = 0;
    await verifyWebhook({ body, headers, apiKey, apiSecret, now });
    expect(computed.calls).toEqual([{ apiKey, canonicalBody: body }]);
  });
});

describe("equalBit", () => {
  it("is 1 for equal strings and 0 for any difference, including length", () => {
    const a = "CoisDnWK4b/1Ef/LKPa8vt0mHITBmkBZoI3HQj03OSM=";
    expect(equalBit(a, a)).toBe(1);
    expect(equalBit(a, `${a.slice(0, -2)}N=`)).toBe(0);
    expect(equalBit(a, `D${a.slice(1)}`)).toBe(0);
    expect(equalBit(a, a.slice(1))).toBe(0);
  });
});
