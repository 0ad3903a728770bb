import { describe, expect, it } from "vitest";
import { decodeBody, parseBody } from "../../src/http/body.js";
import { MAX_JSON_DEPTH } from "../../src/json/nesting-depth.js";

function thrown(work: () => unknown): { status: number; code: string; message: string } {
  try {
    work();
  } catch (error) {
    return error as { status: number; code: string; message: string };
  }
  throw new Error("nothing was thrown");
}

describe("decoding the body", () => {
  it("is undefined for an empty body", () => {
    expect(decodeBody(Buffer.alloc(0))).toBeUndefined();
  });

  it("reads UTF-8 text as sent, byte order mark included", () => {
    expect(decodeBody(Buffer.from('\ufeff{"name":"Zoë"}'))).toBe('\ufeff{"name":"Zoë"}');
  });

  it("answers 400 INPUT_MALFORMED for bytes that are not UTF-8", () => {
    const error = thrown(() => decodeBody(Buffer.from([0x7b, 0xff, 0x7d])));
    expect(error).toMatchObject({ status: 400, code: "INPUT_MALFORMED", message: "The body is not valid UTF-8" });
  });

  it(`answers 400 INPUT_MALFORMED for JSON nested deeper than ${MAX_JSON_DEPTH} levels`, () => {
    const deep = "[".repeat(MAX_JSON_DEPTH + 1) + "]".repeat(MAX_JSON_DEPTH + 1);
    const error = thrown(() => decodeBody(Buffer.from(deep)));
    expect(error).toMatchObject({ status: 400, code: "INPUT_MALFORMED" });
    expect(error.message).toContain("nested too deeply");
  });

  it(`accepts JSON nested exactly ${MAX_JSON_DEPTH} levels`, () => {
    const deep = "[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH);
    expect(decodeBody(Buffer.from(deep))).toBe(deep);
  });

  it("leaves text that is not JSON to the parser (the signature is checked first)", () => {
    expect(decodeBody(Buffer.from("not json"))).toBe("not json");
  });
});

describe("parsing the body", () => {
  it("is the empty object when there is no body", () => {
    expect(parseBody("POST", undefined)).toEqual({});
  });

  it("ignores the body of a GET or HEAD", () => {
    expect(parseBody("GET", "not json")).toEqual({});
    expect(parseBody("HEAD", "not json")).toEqual({});
  });

  it("returns the JSON object the body holds", () => {
    expect(parseBody("POST", '{"a":[1,{"b":null}]}')).toEqual({ a: [1, { b: null }] });
  });

  it("reads escaped keys correctly", () => {
    expect(Object.keys(parseBody("POST", '{"h":1,"\\u7a3c":2}'))).toEqual(["h", "稼"]);
  });

  it("answers 400 INPUT_MALFORMED for text that is not JSON", () => {
    expect(thrown(() => parseBody("POST", "{"))).toMatchObject({
      status: 400,
      code: "INPUT_MALFORMED",
      message: "Malformed JSON body",
    });
  });

  it("answers 400 INPUT_MALFORMED for JSON that is not an object", () => {
    for (const text of ["[]", "null", "1", '"x"']) {
      expect(
        thrown(() => parseBody("POST", text)),
        text,
      ).toMatchObject({
        status: 400,
        code: "INPUT_MALFORMED",
        message: "The body must be a JSON object",
      });
    }
  });
});
