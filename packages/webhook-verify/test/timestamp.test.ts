import { describe, expect, it } from "vitest";
import { WebhookVerificationError } from "../src/index.js";
import { checkTimestamp, parseUnixSeconds } from "../src/timestamp.js";
import { now } from "./support/fixtures.js";

describe("parseUnixSeconds reads only a canonical decimal integer", () => {
  it.each([
    ["1772359200", 1772359200],
    ["0", 0],
    ["1", 1],
    ["999999999999999", 999999999999999], // 15 digits, the most read
    ["1772359200000", 1772359200000], // milliseconds parse, and then fail the tolerance saying so
    ["0001772359200", undefined], // leading zeros: another spelling of a signed text
    ["01", undefined],
    ["00", undefined],
    ["+1", undefined],
    ["+1772359200", undefined],
    ["-1", undefined],
    ["-0", undefined],
    [" 1", undefined],
    ["1772359200 ", undefined],
    ["\t1772359200", undefined],
    ["1772359200\n", undefined],
    ["1 772 359 200", undefined],
    ["1e9", undefined],
    ["1E9", undefined],
    ["1772359200.0", undefined],
    ["0x69a3f0a0", undefined],
    ["", undefined],
    ["9007199254740993", undefined], // beyond Number.MAX_SAFE_INTEGER: would not round-trip
    ["1".repeat(400), undefined],
    ["١٧٧٢٣٥٩٢٠٠", undefined], // Arabic-Indic digits
    ["１７７２３５９２００", undefined], // fullwidth digits
    ["Infinity", undefined],
    ["NaN", undefined],
  ])("%j is %s", (text, expected) => {
    expect(parseUnixSeconds(text)).toBe(expected);
  });
});

function codeOf(run: () => void): string {
  try {
    run();
    return "ok";
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).code;
  }
}

describe("checkTimestamp", () => {
  it.each([
    [String(now), 300, "ok"],
    [`000${now}`, 300, "INVALID_TIMESTAMP"],
    [`+${now}`, 300, "INVALID_TIMESTAMP"],
    [`${now}e0`, 300, "INVALID_TIMESTAMP"],
    [String(now - 301), 300, "TIMESTAMP_OUT_OF_TOLERANCE"],
    [String(now * 1000), 300, "TIMESTAMP_OUT_OF_TOLERANCE"],
    ["99999999999", Number.POSITIVE_INFINITY, "ok"], // 11 digits: the year 5138, within an unbounded tolerance
    ["100000000000", Number.POSITIVE_INFINITY, "TIMESTAMP_OUT_OF_TOLERANCE"], // 12 digits: outside any
  ])("%s with tolerance %s: %s", (timestamp, tolerance, expected) => {
    expect(codeOf(() => checkTimestamp(timestamp, now, tolerance))).toBe(expected);
  });

  it("names the rule and shows the value it refused", () => {
    expect(() => checkTimestamp(`000${now}`, now, 300)).toThrow(
      `X-TIMESTAMP must be Unix seconds, got "000${now}": a decimal integer of ASCII digits without a leading zero`,
    );
  });
});
