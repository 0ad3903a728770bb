import { describe, expect, it } from "vitest";
import { type BodySignature, bodySignature, isFreshTimestamp } from "../../src/http/auth.js";

describe("the verdict on a signed body", () => {
  const cases: Array<[form: Parameters<typeof bodySignature>[0], asSent: boolean, canonical: boolean, BodySignature]> =
    [
      ["canonical", true, false, "valid"],
      ["canonical", false, false, "invalid"],
      ["not-json", true, false, "valid"], // the body parser answers 400 next
      ["not-json", false, false, "invalid"],
      ["not-canonical", true, false, "not-canonical"],
      ["not-canonical", false, true, "not-canonical"],
      ["not-canonical", true, true, "not-canonical"],
      ["not-canonical", false, false, "invalid"],
    ];
  it.each(cases)(
    "a %s body signed as sent: %s, signed in canonical form: %s, is %s",
    (form, asSent, canonical, verdict) => {
      expect(bodySignature(form, asSent, canonical)).toBe(verdict);
    },
  );
});

describe("a fresh timestamp", () => {
  const now = 1_700_000_000;
  const cases: Array<[string, boolean]> = [
    [String(now), true],
    [String(now - 300), true],
    [String(now + 300), true],
    [String(now - 301), false],
    [String(now + 301), false],
    ["1700000000.5", false],
    ["-1", false],
    ["1e9", false],
    ["0001700000000", false], // more than 12 digits
  ];
  it.each(cases)("X-TIMESTAMP %s is fresh: %s", (timestamp, fresh) => {
    expect(isFreshTimestamp(timestamp, now)).toBe(fresh);
  });
});
