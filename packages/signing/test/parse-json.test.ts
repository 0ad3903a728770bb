import { describe, expect, it } from "vitest";
import { parseJson } from "../src/index.js";

// The repro of nodejs/node#63785: after this parse, V8's JSON.parse reads the key "\u7a3c" of an object of the
// same shape as "\\". Each test primes it first, so on an affected runtime the native parser would fail them.
const primeV8 = () => JSON.parse('{"h":1,"\\\\":2}');

describe("parseJson", () => {
  it("reads an escaped key correctly after the input that makes V8 misread it", () => {
    primeV8();
    expect(Object.keys(parseJson('{"h":1,"\\u7a3c":2}') as object)).toEqual(["h", "稼"]);
    expect(Object.keys(parseJson('{"h":1,"\\"":2}') as object)).toEqual(["h", '"']);
  });

  const texts = [
    String.raw`{"a\u00e9":"\ud83d\ude00","b":[1,-2.5e3,true,false,null,{}],"c":{"d\"":"\\"}}`,
    String.raw` [ "x\n" , { "k" : [ ] } , 0 ] `,
    String.raw`"\/"`,
    String.raw`{"a\n":1,"a\n":2}`,
    String.raw`{"n\t":12345678901234567890}`,
    '{"type":"PAYOUT","metadata":{"a":"b"}}',
  ];
  it.each(texts)("gives the value JSON.parse gives for %s", (text) => {
    expect(parseJson(text)).toEqual(JSON.parse(text));
  });

  it('keeps a "__proto__" key as an own member, as JSON.parse does', () => {
    const text = '{"a":[1,"x\\"y"],"__proto__":{"b":"\\u00e9"},"c":{}}';
    const value = parseJson(text) as object;
    expect(Object.keys(value)).toEqual(["a", "__proto__", "c"]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  const malformed = [
    '{"a\\n":1,}',
    '["\\n" 2]',
    '{"a\\n" 1}',
    '["\\x"]',
    '["\\n",01]',
    '{"a\\n":1} x',
    '["\\n"',
    '["\\n","\u0001"]',
    '["\\n",nul]',
  ];
  it.each(malformed)("refuses %j with a SyntaxError, as JSON.parse does", (text) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(() => parseJson(text)).toThrow(SyntaxError);
  });

  it("refuses text with a backslash nested deeper than 2048 levels with a SyntaxError, not a stack overflow", () => {
    const deep = `${"[".repeat(2049)}"\\n"${"]".repeat(2049)}`;
    expect(() => parseJson(deep)).toThrow(/nested deeper than 2048 levels/);
    const ok = `${"[".repeat(2048)}"\\n"${"]".repeat(2048)}`;
    expect(JSON.stringify(parseJson(ok))).toBe(JSON.stringify(JSON.parse(ok)));
  });
});
