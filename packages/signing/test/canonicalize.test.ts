import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { canonicalize, MAX_NESTING_DEPTH } from "../src/index.js";
import { nested } from "./arbitraries.js";

describe("canonicalize", () => {
  it("sorts keys at every level and leaves out whitespace", () => {
    expect(canonicalize({ b: [{ d: 1, c: 2 }], a: { z: null, y: true } })).toBe(
      '{"a":{"y":true,"z":null},"b":[{"c":2,"d":1}]}',
    );
  });

  it("sorts numeric-looking keys as strings, as Python does", () => {
    expect(canonicalize({ 10: "a", 9: "b", 1: "c" })).toBe('{"1":"c","10":"a","9":"b"}');
  });

  it("sorts keys by code point, putting astral characters after U+FF5E", () => {
    expect(canonicalize({ "😀": 1, "\uff5e": 2, "\ue000": 3, z: 4 })).toBe(
      '{"z":4,"\\ue000":3,"\\uff5e":2,"\\ud83d\\ude00":1}',
    );
  });

  it("sorts a lone high surrogate before an astral character it would follow in UTF-16 order", () => {
    expect(canonicalize({ "\ud800\udc00": 1, "\ud801": 2 })).toBe('{"\\ud801":2,"\\ud800\\udc00":1}');
  });

  it("escapes non-ASCII characters as lowercase \\u escapes, astral ones as surrogate pairs", () => {
    expect(canonicalize("अनिल 😀 é")).toBe('"\\u0905\\u0928\\u093f\\u0932 \\ud83d\\ude00 \\u00e9"');
  });

  it("escapes DEL (U+007F), which Python does not treat as printable ASCII", () => {
    expect(canonicalize("\u007f")).toBe('"\\u007f"');
  });

  it("writes control characters with the short escapes where JSON has them", () => {
    expect(canonicalize("\b\t\n\f\r\u0000\u001f")).toBe('"\\b\\t\\n\\f\\r\\u0000\\u001f"');
  });

  it("escapes quotes and backslashes but leaves the slash alone", () => {
    expect(canonicalize('a"b\\c/d')).toBe('"a\\"b\\\\c/d"');
  });

  it("escapes lone surrogates", () => {
    expect(canonicalize("\ud800x\udfff")).toBe('"\\ud800x\\udfff"');
  });

  it("escapes non-ASCII characters in keys", () => {
    expect(canonicalize({ नाम: "x" })).toBe('{"\\u0928\\u093e\\u092e":"x"}');
  });

  it("writes floats the way Python's repr does", () => {
    expect(canonicalize([1e16, 1e-7, 0.1, 1.5e300, 123456789012345680000, 1e-4, 1e-5, 2.5, 5e-324])).toBe(
      "[1e+16,1e-07,0.1,1.5e+300,1.2345678901234568e+20,0.0001,1e-05,2.5,5e-324]",
    );
  });

  it("writes integral numbers below 2^53 as integers", () => {
    expect(canonicalize([0, 5, -42, 9007199254740991, -9007199254740991])).toBe(
      "[0,5,-42,9007199254740991,-9007199254740991]",
    );
  });

  it("writes integral numbers from 2^53 up as Python floats, because they are not exact integers", () => {
    expect(canonicalize([2 ** 53, 1e20, 1e21])).toBe("[9007199254740992.0,1e+20,1e+21]");
  });

  it("writes -0 as 0", () => {
    expect(canonicalize(-0)).toBe("0");
  });

  it("leaves out object properties whose value is undefined", () => {
    expect(canonicalize({ a: 1, b: undefined, c: { d: undefined } })).toBe('{"a":1,"c":{}}');
  });

  it("accepts objects without a prototype", () => {
    const o = Object.assign(Object.create(null), { b: 1, a: 2 });
    expect(canonicalize(o)).toBe('{"a":2,"b":1}');
  });

  it("accepts plain objects from another realm", () => {
    expect(canonicalize(runInNewContext('({ b: [1], a: "x" })'))).toBe('{"a":"x","b":[1]}');
  });

  it("writes top-level scalars", () => {
    expect([canonicalize(null), canonicalize(true), canonicalize("x"), canonicalize(1.5)]).toEqual([
      "null",
      "true",
      '"x"',
      "1.5",
    ]);
  });

  it("accepts the same object twice when it is not its own ancestor", () => {
    const shared = { x: 1 };
    expect(canonicalize({ a: shared, b: [shared] })).toBe('{"a":{"x":1},"b":[{"x":1}]}');
  });

  it(`accepts nesting ${MAX_NESTING_DEPTH} levels deep, the shared limit`, () => {
    const deep = nested(MAX_NESTING_DEPTH, 1);
    expect(canonicalize(deep)).toBe(JSON.stringify(deep));
  });

  it("ignores symbol-keyed properties, as JSON.stringify does", () => {
    expect(canonicalize({ a: 1, [Symbol("s")]: 2 })).toBe('{"a":1}');
  });
});

describe("canonicalize refuses values JSON cannot carry", () => {
  const cases: Array<[string, unknown, string]> = [
    ["NaN", { fees: { pg_fee: NaN } }, "$.fees.pg_fee"],
    ["Infinity", { amount: Infinity }, "$.amount"],
    ["-Infinity", [1, -Infinity], "$[1]"],
    ["undefined inside an array", { items: [1, 2, undefined] }, "$.items[2]"],
    // biome-ignore lint/suspicious/noSparseArray: the hole is the input under test.
    ["a hole in a sparse array", { items: [1, , 3] }, "$.items[1]"],
    ["a function", { cb: () => 1 }, "$.cb"],
    ["a symbol", { s: Symbol("x") }, "$.s"],
    ["a bigint", { big: 10n }, "$.big"],
    ["a Date", { at: new Date(0) }, "$.at"],
    ["a Map", { m: new Map() }, "$.m"],
    ["a class instance", { o: new (class Order {})() }, "$.o"],
    ["a boxed string", { s: new String("x") }, "$.s"],
    ["a key that is not an identifier", { "a b": { "c-d": NaN } }, '$["a b"]["c-d"]'],
    ["undefined at the top", undefined, "$"],
  ];
  it.each(cases)("throws a TypeError naming the path for %s", (_name, value, path) => {
    expect(() => canonicalize(value)).toThrow(TypeError);
    expect(() => canonicalize(value)).toThrow(`Cannot canonicalize ${path}:`);
  });

  it("throws a TypeError naming the path for a cycle", () => {
    const order: Record<string, unknown> = { items: [{}] };
    (order.items as object[])[0] = { parent: order };
    expect(() => canonicalize(order)).toThrow("Cannot canonicalize $.items[0].parent: circular reference");
  });

  it(`throws a TypeError for nesting deeper than ${MAX_NESTING_DEPTH} levels (512), below what Python's json reads`, () => {
    expect(MAX_NESTING_DEPTH).toBe(512);
    expect(() => canonicalize(nested(MAX_NESTING_DEPTH + 1))).toThrow(TypeError);
    expect(() => canonicalize(nested(MAX_NESTING_DEPTH + 1))).toThrow("nested deeper than 512 levels");
    expect(() => canonicalize(nested(MAX_NESTING_DEPTH, []))).toThrow("nested deeper than 512 levels"); // an empty one counts
  });

  it("keeps the error message short for a path hundreds of levels long, showing both ends", () => {
    let error: unknown;
    try {
      canonicalize(nested(100_000));
    } catch (e) {
      error = e;
    }
    expect((error as Error).message).toBe(
      "Cannot canonicalize $.k[0].k[0]…(504 levels)….k[0].k[0]: nested deeper than 512 levels",
    );
  });

  it("cuts a very long key in the path", () => {
    const key = "k".repeat(1000);
    expect(() => canonicalize({ [key]: NaN })).toThrow(
      `Cannot canonicalize $.${"k".repeat(39)}…: NaN is not a JSON number`,
    );
  });

  it("does not call toJSON, so a Date is refused rather than silently turned into a string", () => {
    expect(() => canonicalize(new Date(0))).toThrow("an instance of Date is not a plain object or array");
  });
});
