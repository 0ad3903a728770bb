import { canonicalize } from "@exchange-kit/signing";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { equalBit } from "../src/signature.js";
import { apiKey, apiSecret, now, payoutInReview, signText } from "./support/fixtures.js";

const computed = vi.hoisted(() => ({ calls: [] as { apiKey: string; canonicalBody: string }[] }));

vi.mock("@exchange-kit/signing", async (importOriginal) => {
  const signing = await importOriginal<typeof import("@exchange-kit/signing")>();
  return {
    ...signing,
    computeSignature: (options: Parameters<typeof signing.computeSignature>[0]) => {
      computed.calls.push({ apiKey: options.apiKey, canonicalBody: options.canonicalBody });
      return signing.computeSignature(options);
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

  it("computes both the raw and the canonical form of a re-serialized body for every credential", async () => {
    const headers = await signText(body);
    computed.calls.length = 0;
    const pretty = JSON.stringify(payoutInReview, null, 2);
    await verifyWebhook({ body: pretty, headers, credentials, now });
    expect(computed.calls).toEqual([
      { apiKey, canonicalBody: pretty },
      { apiKey, canonicalBody: body },
      { apiKey: "ak_next", canonicalBody: pretty },
      { apiKey: "ak_next", canonicalBody: body },
    ]);
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
