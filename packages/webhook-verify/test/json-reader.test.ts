import { describe, expect, it } from "vitest";
import { parseJson, readJson } from "../src/json-reader.js";

describe("readJson, the reader for text with escapes", () => {
  const texts = [
    String.raw`{"a\u00e9":"\ud83d\ude00","b":[1,-2.5e3,true,false,null,{}],"c":{"d\"":"\\"}}`,
    String.raw` [ "x\n" , { "k" : [ ] } , 0 ] `,
    String.raw`"\/"`,
    String.raw`{"a":1,"a":2}`,
    "12345678901234567890",
  ];
  it.each(texts)("reads %s as JSON.parse does", (text) => {
    expect(readJson(text)).toEqual(JSON.parse(text));
  });

  const malformed = ['{"a":1,}', "[1 2]", '{"a" 1}', '"\\x"', "01", "{", '{"a":1}x', '"\u0001"', "nul"];
  it.each(malformed)("rejects %s with a SyntaxError, as JSON.parse does", (text) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(() => readJson(text)).toThrow(SyntaxError);
  });
});

describe("parseJson", () => {
  it("uses the native parser for text without a backslash and gives the same value either way", () => {
    const plain = '{"type":"PAYOUT","metadata":{"a":"b"}}';
    expect(parseJson(plain)).toEqual(readJson(plain));
    expect(parseJson('{"k\\u00e9":1}')).toEqual({ "ké": 1 });
  });
});
