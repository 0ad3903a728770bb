import { createFinalURL, createQuerySerializer, defaultPathSerializer } from "openapi-fetch";
import { describe, expect, it } from "vitest";
import { callUrl, writeQuery } from "../src/query-string.js";

// openapi-fetch's default serializer is the reference: a resource method and client.raw must send the same URL.
const openapiFetchQuery = createQuerySerializer();
const BASE = "https://exchange.test/v1";

const cases: [string, Record<string, unknown>][] = [
  ["no parameters", {}],
  ["numbers and strings", { page: 2, per_page: 10, status: "COMPLETED" }],
  ["undefined and null left out", { a: undefined, b: null, c: "kept" }],
  ["an array as repeated keys", { status: ["PENDING", "COMPLETED"] }],
  ["an empty array left out", { status: [], page: 1 }],
  ["a null inside an array", { status: ["A", null, "B"] }],
  ["an object as name[key]", { filter: { from: "2026-01-01", to: "2026-02-01" } }],
  ["an object with a null member", { filter: { from: null, to: "x" } }],
  ["reserved and non-ASCII characters encoded", { q: "a b&c=d/é?#+%", "x y": "1" }],
  ["booleans and zero", { flag: false, other: true, zero: 0 }],
  ["a bigint", { big: 12345678901234567890n }],
  ["a first parameter named with a question mark", { "?odd": "1", b: "2" }],
];

describe("the query string, written as openapi-fetch's default serializer writes it", () => {
  it.each(cases)("%s", (_, query) => {
    expect(writeQuery(query)).toBe(openapiFetchQuery(query));
  });

  it.each(cases)("the whole URL for %s", (_, query) => {
    const reference = createFinalURL("/pis/api/v1/payin/history", {
      baseUrl: BASE,
      params: { query },
      querySerializer: openapiFetchQuery,
      pathSerializer: defaultPathSerializer,
    });
    expect(callUrl(BASE, "/pis/api/v1/payin/history", query)).toBe(reference);
  });

  it.each([
    ["an object inside an array", { status: [{ a: 1 }] }],
    ["an object inside an object", { filter: { range: { from: 1 } } }],
  ])("refuses %s as openapi-fetch does", (_, query) => {
    expect(() => openapiFetchQuery(query)).toThrow();
    expect(() => writeQuery(query)).toThrow("Deeply-nested arrays/objects aren’t supported");
  });
});
