import { canonicalize, canonicalizeText } from "@exchange-kit/signing";
import { describe, expect, it } from "vitest";
import { isCanonicalJson } from "../src/canonical-check.js";

// A small seeded generator of JSON values, biased towards what breaks canonical forms.
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const ALPHABET = ["a", "b", "Z", "1", " ", '"', "\\", "/", "\n", "\u0001", "\u007f", "é", "€", "😀", "\ud800", "_"];

function value(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 2 ? 6 : 8));
  const text = () =>
    Array.from({ length: Math.floor(next() * 5) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join("");
  switch (pick) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2:
      return Math.floor((next() - 0.5) * 2 ** (next() * 60));
    case 3:
      return (next() - 0.5) * 10 ** Math.floor(next() * 40 - 20);
    case 4:
    case 5:
      return text();
    case 6:
      return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      for (let i = Math.floor(next() * 5); i > 0; i--) object[text()] = value(next, depth + 1);
      return object;
    }
  }
}

describe("isCanonicalJson", () => {
  it("never calls a text canonical when canonicalizeText would change it (3,000 random texts)", () => {
    const next = random(20260301);
    let canonicalSeen = 0;
    for (let i = 0; i < 1000; i++) {
      const v = value(next, 0);
      for (const text of [canonicalize(v), JSON.stringify(v), JSON.stringify(v, null, 1)]) {
        if (isCanonicalJson(text)) {
          canonicalSeen++;
          expect(canonicalizeText(text), text).toBe(text);
        }
      }
    }
    expect(canonicalSeen).toBeGreaterThan(500);
  });

  it("recognizes the canonical form of integer and string events, which is what the service sends", () => {
    const texts = [
      '{"event":"VERIFIED","id":"3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f","metadata":{},"timestamp":"2026-03-01T09:12:40Z","type":"CUSTOMER"}',
      '{"a":[1,-2,0,12345678901234567890,true,false,null,"x y/~\\"\\\\\\n\\u0001\\u007f\\u00e9\\ud83d\\ude00"],"b":{"c":[],"d":{}}}',
      '"top-level string"',
      "42",
      "[]",
      "{}",
    ];
    for (const text of texts) {
      expect(canonicalizeText(text)).toBe(text);
      expect(isCanonicalJson(text), text).toBe(true);
    }
  });

  it("rejects whitespace, unsorted or repeated keys, -0, raw non-ASCII, \\/ and uppercase escapes", () => {
    const texts = [
      '{"a": 1}',
      '{"b":1,"a":2}',
      '{"a":1,"a":2}',
      "-0",
      '"é"',
      '"\\/"',
      '"\\u00E9"',
      '"\\u0041"',
      '"\\u000a"',
      '"\u007f"',
      "[1,]",
      "{}x",
      "",
      "\ufeff{}",
    ];
    for (const text of texts) expect(isCanonicalJson(text), text).toBe(false);
  });

  it("leaves floats and keys with escapes to the slow path (canonicalizeText)", () => {
    for (const text of ['{"a":1.5}', "1.0", '{"\\u00e9":1}', '{"a\\nb":1}']) {
      expect(canonicalizeText(text)).toBe(text);
      expect(isCanonicalJson(text), text).toBe(false);
    }
  });
});
