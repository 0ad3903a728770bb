import { describe, expect, it } from "vitest";
import {
  add,
  compare,
  dec,
  div,
  fitsScale,
  format,
  isDecimalString,
  mul,
  parse,
  round,
  sign,
  sub,
  sum,
  toNumber,
  type Rounding,
} from "../src/domain/decimal.js";

const s = (text: string) => parse(text);
const show = (text: string) => format(parse(text));

describe("the decimal module", () => {
  it("parses and formats values beyond 2^53 without losing a digit", () => {
    expect(show("9007199254740993")).toBe("9007199254740993");
    expect(Number("9007199254740993")).toBe(9007199254740992); // what floating point would have done
    expect(format(add(s("9007199254740993"), s("1")))).toBe("9007199254740994");
    expect(format(mul(s("123456789012345678901234567890.123456"), s("88")))).toBe(
      "10864197433086419743308641974330.864128",
    );
    expect(format(s("99999999999999999999999.99"), 2)).toBe("99999999999999999999999.99");
  });

  it("keeps many decimals exact and compares them exactly", () => {
    expect(format(add(s("0.1"), s("0.2")))).toBe("0.3");
    expect(format(add(s("0.000000000000000000001"), s("0.000000000000000000002")))).toBe("0.000000000000000000003");
    expect(compare(s("2500.000000000000001"), s("2500"))).toBe(1);
    expect(compare(s("2500.000000000000000"), s("2500"))).toBe(0);
    expect(compare(s("2499.999999999999999"), s("2500"))).toBe(-1);
    expect(compare(s("4001.00"), dec(4001))).toBe(0);
  });

  it("handles negative values and zero, with -0 equal to 0", () => {
    expect(sign(s("-0"))).toBe(0);
    expect(sign(s("-0.000"))).toBe(0);
    expect(format(s("-0.00"))).toBe("0.00");
    expect(format(sub(s("1"), s("2.5")))).toBe("-1.5");
    expect(compare(s("-1"), s("0.5"))).toBe(-1);
    expect(format(sum([s("-1.25"), s("1.25"), s("0")]), 2)).toBe("0.00");
    expect(format(mul(s("-2.5"), s("-0.4")))).toBe("1.00");
  });

  it("accepts only the spec's DecimalString pattern", () => {
    for (const ok of ["0", "-1", "100.50", "007", "1.000000000000000000001"]) expect(isDecimalString(ok)).toBe(true);
    for (const bad of ["1e5", "1.", ".5", "+1", " 1", "1 ", "0x10", "Infinity", "NaN", "1,000.00", "", "--1"]) {
      expect(isDecimalString(bad)).toBe(false);
      expect(() => parse(bad)).toThrow(TypeError);
    }
    expect(isDecimalString(100)).toBe(false);
  });

  it.each<[string, number, Rounding, string]>([
    ["100.005", 2, "half-up", "100.01"],
    ["100.005", 2, "down", "100.00"],
    ["100.005", 2, "up", "100.01"],
    ["100.0049999", 2, "half-up", "100.00"],
    ["100.004", 2, "up", "100.01"],
    ["2.675", 2, "half-up", "2.68"],
    ["1.005", 2, "half-up", "1.01"],
    ["-1.005", 2, "half-up", "-1.01"],
    ["-1.009", 2, "down", "-1.00"],
    ["-1.001", 2, "up", "-1.01"],
    ["0.0000005", 6, "half-up", "0.000001"],
    ["0.0000004999", 6, "half-up", "0.000000"],
    ["100.5", 0, "half-up", "101"],
    ["100.50", 4, "down", "100.5000"],
  ])("rounds %s to %i decimals %s as %s", (value, scale, rounding, expected) => {
    expect(format(round(s(value), scale, rounding))).toBe(expected);
    expect(format(s(value), scale, rounding)).toBe(expected);
  });

  it("rounds x.xx5 half-up where floating point rounds it down", () => {
    expect((2.675).toFixed(2)).toBe("2.67");
    expect((1.005).toFixed(2)).toBe("1.00");
    expect(format(s("2.675"), 2, "half-up")).toBe("2.68");
    expect(format(s("1.005"), 2, "half-up")).toBe("1.01");
  });

  it("divides at an explicit scale with an explicit rounding rule", () => {
    expect(format(div(s("1"), s("3"), 6, "down"))).toBe("0.333333");
    expect(format(div(s("1"), s("3"), 6, "up"))).toBe("0.333334");
    expect(format(div(s("2"), s("3"), 6, "half-up"))).toBe("0.666667");
    expect(format(div(s("10"), s("0.25"), 2, "down"))).toBe("40.00");
    expect(format(div(s("1.23456789"), s("1"), 2, "half-up"))).toBe("1.23");
    expect(format(div(s("-1"), s("3"), 2, "up"))).toBe("-0.34");
    expect(format(div(s("1"), s("-8"), 2, "half-up"))).toBe("-0.13");
    expect(format(div(s("2500"), s("88"), 6, "up"))).toBe("28.409091");
    expect(() => div(s("1"), s("0.00"), 2, "down")).toThrow(RangeError);
  });

  it("multiplies exactly: the scales add up", () => {
    const product = mul(s("25000.00"), s("0.0025"));
    expect(product).toEqual({ units: 62500000n, scale: 6 });
    expect(format(product)).toBe("62.500000");
    expect(format(product, 2)).toBe("62.50");
  });

  it("refuses to format away a digit unless a rounding rule is given", () => {
    expect(() => format(s("100.005"), 2)).toThrow(RangeError);
    expect(format(s("100.500"), 2)).toBe("100.50");
    expect(format(s("7"), 2)).toBe("7.00");
    expect(format(s("0.5"), 6)).toBe("0.500000");
    expect(fitsScale(s("100.500"), 2)).toBe(true);
    expect(fitsScale(s("100.005"), 2)).toBe(false);
    expect(fitsScale(s("2500.000000000000001"), 6)).toBe(false);
  });

  it("converts to a JavaScript number only on request, from the decimal string", () => {
    expect(toNumber(s("62.50"))).toBe(62.5);
    expect(toNumber(s("0.000276"))).toBe(0.000276);
    expect(() => dec(2 ** 53 + 2)).toThrow(RangeError);
    expect(format(dec(9007199254740993n))).toBe("9007199254740993");
  });
});
