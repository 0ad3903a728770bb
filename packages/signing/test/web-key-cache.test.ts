import { afterEach, describe, expect, it, vi } from "vitest";
import { computeSignature } from "../src/index.js";
import { cachedKeyCount } from "../src/web-hmac.js";

const sign = (apiSecret: string) =>
  computeSignature({ apiKey: "k", apiSecret, timestamp: 1700000000, canonicalBody: "{}" });

describe("the Web Crypto key cache", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("imports the key of a secret once and reuses it", async () => {
    const importKey = vi.spyOn(crypto.subtle, "importKey");
    const first = await sign("cache-secret-a");
    const second = await sign("cache-secret-a");
    expect(second).toBe(first);
    expect(importKey).toHaveBeenCalledTimes(1);
  });

  it("holds at most 32 keys however many secrets are used", async () => {
    for (let i = 0; i < 40; i++) await sign(`cache-secret-${i}`);
    expect(cachedKeyCount()).toBe(32);
  });

  it("keeps signing correctly for a secret whose key was evicted", async () => {
    const before = await sign("evicted-secret");
    for (let i = 0; i < 40; i++) await sign(`filler-${i}`);
    expect(await sign("evicted-secret")).toBe(before);
  });
});
