// Where U+0000 is found in a request's values: the field named, as a table.
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/domain/api-error.js";
import { fieldWithNul, NUL_MESSAGE, refuseNul, refuseNulInQuery } from "../../src/api/nul-text.js";

describe("fieldWithNul", () => {
  it.each([
    ["a plain string", "ok", undefined],
    ["a string holding NUL", "a\u0000b", "v"],
    ["a number", 7, undefined],
    ["null", null, undefined],
    ["an object's text", { city: "x\u0000" }, "v.city"],
    ["an object's key", { "ci\u0000ty": "x" }, "v.ci\u0000ty"],
    ["an array's item", ["ok", "n\u0000"], "v.1"],
    ["a deep field", { a: { b: [{ c: "\u0000" }] } }, "v.a.b.0.c"],
    ["nested text without NUL", { a: { b: ["x"] } }, undefined],
  ])("%s: %j", (_name, value, field) => {
    expect(fieldWithNul(value, "v")).toBe(field);
  });
});

describe("refuseNul", () => {
  const refusal = (run: () => void) => {
    try {
      run();
    } catch (error) {
      return error as ApiError;
    }
    return undefined;
  };

  it("names the body field holding NUL in a 400 INPUT_MALFORMED", () => {
    const error = refusal(() => refuseNul({ full_name: "ok", address: { line1: "\u0000" } }));
    expect(error).toBeInstanceOf(ApiError);
    expect([error?.status, error?.code, error?.errors]).toEqual([
      400,
      "INPUT_MALFORMED",
      { "address.line1": [NUL_MESSAGE] },
    ]);
  });

  it("refuses a NUL in a top-level key without repeating the key", () => {
    expect(refusal(() => refuseNul({ "a\u0000": 1 }))?.errors).toEqual({ non_field_errors: [NUL_MESSAGE] });
  });

  it("checks every value of a repeated query name", () => {
    expect(refusal(() => refuseNulInQuery(new URLSearchParams("q=ok&q=%00")))?.errors).toEqual({
      q: [NUL_MESSAGE],
    });
  });

  it("lets text without NUL through", () => {
    expect(refusal(() => refuseNul({ q: "Asha Verma", n: 3 }))).toBeUndefined();
  });
});
