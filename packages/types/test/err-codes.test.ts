import { describe, expect, it } from "vitest";
import { errCodes, isErrCode } from "../src/index.js";
import { ErrCodeSchema } from "../src/zod.js";
import { deref, isObject, spec } from "./support/spec.js";

const doc = spec();

/** Every err_code enum/const value anywhere in the spec, and every err_code in an example. */
function walk() {
  const declared = new Set<string>();
  const inExamples = new Set<string>();
  const fromSchema = (schema: unknown, depth = 0): void => {
    const s = deref(doc, schema);
    if (!isObject(s) || depth > 10) return;
    if (Array.isArray(s.enum)) for (const v of s.enum) declared.add(String(v));
    if ("const" in s) declared.add(String(s.const));
    for (const k of ["allOf", "anyOf", "oneOf"])
      for (const m of (s[k] as unknown[] | undefined) ?? []) fromSchema(m, depth + 1);
  };
  const visit = (node: unknown, inExample: boolean): void => {
    if (Array.isArray(node)) {
      for (const n of node) visit(n, inExample);
      return;
    }
    if (!isObject(node)) return;
    if (inExample && typeof node.err_code === "string") inExamples.add(node.err_code);
    if (!inExample && isObject(node.properties) && "err_code" in node.properties) fromSchema(node.properties.err_code);
    for (const [k, v] of Object.entries(node))
      visit(v, inExample || k === "examples" || k === "example" || k === "value");
  };
  visit(doc, false);
  return { declared, inExamples };
}

describe("ErrCode", () => {
  const { declared, inExamples } = walk();

  it("finds err_code values in the spec", () => {
    expect(declared.size).toBeGreaterThan(10);
  });

  it.each([...declared])("contains %s, an err_code value the spec declares", (code) => {
    expect(errCodes).toContain(code);
    expect(ErrCodeSchema.safeParse(code).success).toBe(true);
    expect(isErrCode(code)).toBe(true);
  });

  it.each([...inExamples])("contains %s, an err_code of an example", (code) => {
    expect(isErrCode(code)).toBe(true);
  });

  it("lists each code once, the same in the runtime list and in the zod schema", () => {
    expect(new Set(errCodes).size).toBe(errCodes.length);
    expect([...ErrCodeSchema.options].sort()).toEqual([...errCodes].sort());
  });

  it("does not take values that are not codes", () => {
    expect(isErrCode("NOT_A_CODE")).toBe(false);
    expect(isErrCode(42)).toBe(false);
    expect(ErrCodeSchema.safeParse("NOT_A_CODE").success).toBe(false);
  });
});
