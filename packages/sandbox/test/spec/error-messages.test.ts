import { describe, expect, it } from "vitest";
import type { ErrorObject } from "../../src/spec/ajv.js";
import { messageOf } from "../../src/spec/error-mapping.js";

function error(keyword: string, params: Record<string, unknown>, schemaPath = "#/properties/x"): ErrorObject {
  return { keyword, params, schemaPath, instancePath: "/x", message: "must be fine" } as ErrorObject;
}

describe("the message of a field error", () => {
  const cases: Array<[string, ErrorObject, string]> = [
    ["a missing member", error("required", { missingProperty: "x" }), "This field is required."],
    ["a wrong type", error("type", { type: "string" }), "Must be of type string."],
    ["a known format", error("format", { format: "email" }), "Enter a valid email address."],
    ["another format", error("format", { format: "hostname" }), "Must be a valid hostname."],
    [
      "a YYYY-MM-DD date",
      error("pattern", { pattern: "^d$" }, "#/components/schemas/DateYMD/pattern"),
      "Date must be in YYYY-MM-DD format.",
    ],
    [
      "a DD-MM-YYYY date",
      error("pattern", { pattern: "^d$" }, "#/components/schemas/DateDMY/pattern"),
      "Date must be in DD-MM-YYYY format.",
    ],
    [
      "a country code",
      error("pattern", { pattern: "^[A-Z]{3}$" }, "#/components/schemas/Alpha3CountryCode/pattern"),
      "Invalid country code: use ISO 3166-1 alpha-3, e.g. IND.",
    ],
    [
      "a decimal string",
      error("pattern", { pattern: "^d$" }, "#/components/schemas/DecimalString/pattern"),
      "Must be a decimal string, e.g. 100.50.",
    ],
    ["another pattern", error("pattern", { pattern: "^[a-z]+$" }), "Has an invalid format (expected ^[a-z]+$)."],
    ["a blank string", error("minLength", { limit: 1 }), "This field may not be blank."],
    ["a short string", error("minLength", { limit: 3 }), "Ensure this field has at least 3 characters."],
    ["a long string", error("maxLength", { limit: 9 }), "Ensure this field has no more than 9 characters."],
    ["a small number", error("minimum", { limit: 10 }), "Ensure this value is greater than or equal to 10."],
    ["a large number", error("maximum", { limit: 100 }), "Ensure this value is less than or equal to 100."],
    ["a value outside an enum", error("enum", { allowedValues: ["A", "B"] }), "Must be one of: A, B."],
    ["a value other than a const", error("const", { allowedValue: "UPI" }), "Must be UPI."],
    ["an unknown member", error("additionalProperties", { additionalProperty: "y" }), "Unknown field."],
    ["a forbidden value", error("not", {}), "This value is not allowed here."],
    ["any other keyword", error("multipleOf", { multipleOf: 2 }), "must be fine."],
  ];
  it.each(cases)("for %s", (_, given, message) => {
    expect(messageOf(given)).toBe(message);
  });

  it("is Ajv's generic wording when Ajv gives no message", () => {
    expect(messageOf({ ...error("uniqueItems", {}), message: undefined })).toBe("Invalid value.");
  });
});
