import { describe, expect, it } from "vitest";
import { canonicalize, canonicalizeText, MAX_NESTING_DEPTH } from "../src/index.js";
import { nested } from "./arbitraries.js";

describe("canonicalizeText", () => {
  it("sorts keys and removes whitespace", () => {
    expect(canonicalizeText(' {\n\t"b" : [ 1 , 2 ] ,\r\n "a" : "x" } ')).toBe('{"a":"x","b":[1,2]}');
  });

  it("keeps every digit of an integer beyond 2^53", () => {
    expect(canonicalizeText("[123456789012345678901234567890,-9007199254740993]")).toBe(
      "[123456789012345678901234567890,-9007199254740993]",
    );
  });

  it("writes float literals as Python floats: 1.0 stays 1.0, 1e5 becomes 100000.0", () => {
    expect(canonicalizeText("[1.0,1e5,1E+2,2.50,1e16,1e-7]")).toBe("[1.0,100000.0,100.0,2.5,1e+16,1e-07]");
  });

  it("writes the integer -0 as 0 and the float -0.0 as -0.0", () => {
    expect(canonicalizeText("[-0,-0.0]")).toBe("[0,-0.0]");
  });

  it("writes float literals that overflow as Infinity and ones that underflow as zero", () => {
    expect(canonicalizeText("[1E400,-1e400,1e-400,-1e-400]")).toBe("[Infinity,-Infinity,0.0,-0.0]");
  });

  it("accepts Python's NaN, Infinity and -Infinity literals", () => {
    expect(canonicalizeText("[NaN, Infinity, -Infinity]")).toBe("[NaN,Infinity,-Infinity]");
  });

  it("keeps the last value of a duplicate key", () => {
    expect(canonicalizeText('{"a":1,"b":2,"a":3}')).toBe('{"a":3,"b":2}');
  });

  it("treats a key written with an escape as the same key", () => {
    expect(canonicalizeText('{"a":1,"\\u0061":2}')).toBe('{"a":2}');
  });

  it("decodes escapes and re-escapes non-ASCII characters in lowercase", () => {
    expect(canonicalizeText('"\\u00E9\\/\\n é 😀"')).toBe('"\\u00e9/\\n \\u00e9 \\ud83d\\ude00"');
  });

  it("joins an escaped surrogate pair into one astral character for key order", () => {
    expect(canonicalizeText('{"\\ud83d\\ude00":1,"\\uff5e":2}')).toBe('{"\\uff5e":2,"\\ud83d\\ude00":1}');
  });

  it("keeps a raw high surrogate and an escaped low one as two lone surrogates, as Python does", () => {
    // Python sees [U+D800, U+DC00], which sorts before U+D801; JavaScript would see U+10000.
    expect(canonicalizeText('{"\ud800\\udc00":1,"\\ud801":2}')).toBe('{"\\ud800\\udc00":1,"\\ud801":2}');
  });

  it("accepts any JSON value at the top", () => {
    expect([canonicalizeText(" 5 "), canonicalizeText('"x"'), canonicalizeText("null")]).toEqual(["5", '"x"', "null"]);
  });
});

describe("canonicalizeText rejects malformed text with a SyntaxError giving the offset", () => {
  const cases: Array<[string, string, string]> = [
    ["empty text", "", "Expecting value: line 1 column 1 (char 0)"],
    ["a trailing comma in an array", "[1,]", "Expecting value: line 1 column 4 (char 3)"],
    [
      "a trailing comma in an object",
      '{"a":1,}',
      "Expecting property name enclosed in double quotes: line 1 column 8 (char 7)",
    ],
    ["a missing colon", '{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
    ["a missing comma", "[1 2]", "Expecting ',' delimiter: line 1 column 4 (char 3)"],
    ["single quotes", "{'a':1}", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"],
    ["a leading zero", "01", "Extra data: line 1 column 2 (char 1)"],
    ["a bare minus", "-", "Expecting value: line 1 column 1 (char 0)"],
    ["an unterminated string", '"abc', "Unterminated string starting at: line 1 column 1 (char 0)"],
    ["a raw control character in a string", '"a\u0001"', "Invalid control character at: line 1 column 3 (char 2)"],
    ["an unknown escape", '"\\x"', "Invalid \\escape: line 1 column 2 (char 1)"],
    ["a bad \\u escape", '"\\u12G4"', "Invalid \\uXXXX escape: line 1 column 3 (char 2)"],
    ["a byte order mark", "\ufeff{}", "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"],
    ["a form feed as whitespace", "\f1", "Expecting value: line 1 column 1 (char 0)"],
    ["text after the value", '{"a":1}\n{"b":2}', "Extra data: line 2 column 1 (char 8)"],
  ];
  it.each(cases)("for %s", (_name, text, message) => {
    expect(() => canonicalizeText(text)).toThrow(SyntaxError);
    expect(() => canonicalizeText(text)).toThrow(message);
  });

  it("accepts nesting 512 levels deep, the limit it shares with canonicalize", () => {
    const deep = `${"[".repeat(MAX_NESTING_DEPTH)}1${"]".repeat(MAX_NESTING_DEPTH)}`;
    expect(canonicalizeText(deep)).toBe(deep);
    expect(canonicalizeText(canonicalize(nested(MAX_NESTING_DEPTH, 1)))).toBe(
      canonicalize(nested(MAX_NESTING_DEPTH, 1)),
    );
  });

  it("rejects nesting deeper than 512 levels with a short SyntaxError, an empty container included", () => {
    const tooDeep = `${"[".repeat(MAX_NESTING_DEPTH + 1)}${"]".repeat(MAX_NESTING_DEPTH + 1)}`;
    expect(() => canonicalizeText(tooDeep)).toThrow(SyntaxError);
    expect(() => canonicalizeText(tooDeep)).toThrow(
      "Too deep: nested deeper than 512 levels: line 1 column 513 (char 512)",
    );
    const million = `${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`;
    expect(() => canonicalizeText(million)).toThrow(
      /^Too deep: nested deeper than 512 levels: line 1 column 513 \(char 512\)$/,
    );
  });

  it("throws a TypeError when given something other than a string", () => {
    expect(() => canonicalizeText({} as unknown as string)).toThrow(TypeError);
  });
});
