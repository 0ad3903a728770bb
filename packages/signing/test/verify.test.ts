import { describe, expect, it } from "vitest";
import { verifySignatureSync } from "../src/node.js";
import { credentials, entries } from "./entries.js";

const timestamp = 1700000000;
const canonicalBody = '{"amount":"10.00","name":"\\u0905\\u0928\\u093f\\u0932"}';

describe.each(entries)("verifySignature, %s", (_name, lib) => {
  const sign = (body = canonicalBody, ts: number | string = timestamp) =>
    lib.computeSignature({ ...credentials, timestamp: ts, canonicalBody: body });
  const verify = async (patch: Record<string, unknown> = {}) =>
    lib.verifySignature({
      ...credentials,
      timestamp,
      canonicalBody,
      signature: await sign(),
      now: timestamp,
      ...patch,
    });

  it("accepts the signature of this body and timestamp", async () => {
    expect(await verify()).toBe(true);
  });

  it("accepts a timestamp given as the header string", async () => {
    expect(await verify({ timestamp: "1700000000" })).toBe(true);
  });

  it("rejects a signature made with another secret", async () => {
    const other = await lib.computeSignature({ ...credentials, apiSecret: "other", timestamp, canonicalBody });
    expect(await verify({ signature: other })).toBe(false);
  });

  it("rejects a tampered body", async () => {
    expect(await verify({ canonicalBody: canonicalBody.replace("10.00", "99.00") })).toBe(false);
  });

  it("rejects a signature for another timestamp", async () => {
    expect(await verify({ signature: await sign(canonicalBody, timestamp + 1) })).toBe(false);
  });

  it("accepts a timestamp exactly toleranceSeconds in the past or the future", async () => {
    expect(await verify({ now: timestamp + 300 })).toBe(true);
    expect(await verify({ now: timestamp - 300 })).toBe(true);
  });

  it("rejects a timestamp one second beyond the tolerance in the past", async () => {
    expect(await verify({ now: timestamp + 301 })).toBe(false);
  });

  it("rejects a timestamp one second beyond the tolerance in the future", async () => {
    expect(await verify({ now: timestamp - 301 })).toBe(false);
  });

  it("uses toleranceSeconds when given", async () => {
    expect(await verify({ now: timestamp + 60, toleranceSeconds: 30 })).toBe(false);
    expect(await verify({ now: timestamp + 30, toleranceSeconds: 30 })).toBe(true);
  });

  it("compares against the clock when now is not given", async () => {
    const ts = Math.floor(Date.now() / 1000);
    const signature = await sign(canonicalBody, ts);
    expect(await lib.verifySignature({ ...credentials, timestamp: ts, canonicalBody, signature })).toBe(true);
  });

  it.each([
    ["letters", "17000000OO"],
    ["a negative number", -1700000000],
    ["a fraction", 1700000000.5],
    ["an empty string", ""],
    ["a signed string", "+1700000000"],
    ["sixteen digits", "1700000000000000"],
    ["a missing header", undefined],
  ])("returns false without throwing for a timestamp that is %s", async (_what, bad) => {
    expect(await verify({ timestamp: bad })).toBe(false);
  });

  it.each([
    ["not Base64", "not base64 at all!"],
    ["too short", "AAAA"],
    ["too long", "A".repeat(43) + "A="],
    ["hex instead of Base64", "a".repeat(64)],
    ["missing its padding", "A".repeat(43)],
    ["in the URL-safe alphabet", "-".repeat(43) + "="],
    ["not the canonical encoding", "A".repeat(42) + "B="],
    ["an empty string", ""],
    ["a missing header", undefined],
  ])("returns false without throwing for a signature that is %s", async (_what, bad) => {
    expect(await verify({ signature: bad })).toBe(false);
  });

  it("throws a TypeError when canonicalBody is not a string, a programming error rather than a bad request", async () => {
    await expect(verify({ canonicalBody: { amount: "10.00" } })).rejects.toThrow(TypeError);
  });

  it("throws a TypeError when now looks like milliseconds", async () => {
    await expect(verify({ now: Date.now() })).rejects.toThrow(TypeError);
  });
});

describe("verifySignatureSync", () => {
  it("returns the same answers as verifySignature without a promise", async () => {
    const { computeSignatureSync } = await import("../src/node.js");
    const signature = computeSignatureSync({ ...credentials, timestamp, canonicalBody });
    const options = { ...credentials, timestamp, canonicalBody, signature, now: timestamp };
    expect(verifySignatureSync(options)).toBe(true);
    expect(verifySignatureSync({ ...options, canonicalBody: "{}" })).toBe(false);
    expect(verifySignatureSync({ ...options, signature: "AAAA" })).toBe(false);
  });
});
