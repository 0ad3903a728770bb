// zod/strings.ts: format, length and pattern.
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "@exchange-kit/spec-tools/json-schema";
import { zodOf } from "./support.ts";

describe("strings", () => {
  it.each<{ behaviour: string; schema: JsonSchema; zod: string }>([
    { behaviour: "a plain string is z.string()", schema: { type: "string" }, zod: "z.string()" },
    { behaviour: "uuid is any 8-4-4-4-12 hex (z.guid)", schema: { type: "string", format: "uuid" }, zod: "z.guid()" },
    {
      behaviour: "date-time is RFC 3339, with an offset, T and Z in either case (the dateTime helper)",
      schema: { type: "string", format: "date-time" },
      zod: "dateTime()",
    },
    { behaviour: "date is an ISO date", schema: { type: "string", format: "date" }, zod: "z.iso.date()" },
    { behaviour: "email is z.email()", schema: { type: "string", format: "email" }, zod: "z.email()" },
    { behaviour: "uri is z.url()", schema: { type: "string", format: "uri" }, zod: "z.url()" },
    { behaviour: "ipv4 is z.ipv4()", schema: { type: "string", format: "ipv4" }, zod: "z.ipv4()" },
    { behaviour: "ipv6 is z.ipv6()", schema: { type: "string", format: "ipv6" }, zod: "z.ipv6()" },
    {
      behaviour: "another format is an annotation, not checked",
      schema: { type: "string", format: "iso4217" },
      zod: "z.string()",
    },
    {
      behaviour: "a format named like an Object member is not checked either",
      schema: { type: "string", format: "constructor" },
      zod: "z.string()",
    },
    {
      behaviour: "minLength and maxLength are .min() and .max()",
      schema: { type: "string", minLength: 1, maxLength: 64 },
      zod: "z.string().min(1).max(64)",
    },
    {
      behaviour: "a pattern is a unicode RegExp",
      schema: { type: "string", pattern: "^[A-Z]{3}$" },
      zod: 'z.string().regex(new RegExp("^[A-Z]{3}$", "u"))',
    },
    {
      behaviour: "a pattern keeps its backslashes escaped in the literal",
      schema: { type: "string", pattern: "^\\d+(\\.\\d+)?$" },
      zod: 'z.string().regex(new RegExp("^\\\\d+(\\\\.\\\\d+)?$", "u"))',
    },
    {
      behaviour: "format, lengths and pattern combine in that order",
      schema: { type: "string", pattern: "^a", maxLength: 3, format: "email", minLength: 2 },
      zod: 'z.email().min(2).max(3).regex(new RegExp("^a", "u"))',
    },
    {
      behaviour: "string keywords without a type make a string",
      schema: { minLength: 1 },
      zod: "z.string().min(1)",
    },
  ])("$behaviour", ({ schema, zod }) => {
    expect(zodOf(schema)).toBe(zod);
  });

  it("refuses a pattern JavaScript cannot compile with the u flag", () => {
    expect(() => zodOf({ type: "string", pattern: "\\q" })).toThrow(SyntaxError);
  });
});
