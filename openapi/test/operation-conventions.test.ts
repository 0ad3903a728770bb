import { describe, expect, it } from "vitest";
// @ts-expect-error the lint rules are plain JavaScript without declarations (Redocly loads them as they are)
import { missingSchemes } from "../rules/operation-conventions.js";

describe("the signing schemes an operation's security misses", () => {
  const schemes = ["X-API-KEY", "X-TIMESTAMP", "X-SIGNATURE"];
  const all = { "X-API-KEY": [], "X-TIMESTAMP": [], "X-SIGNATURE": [] };
  const cases: Array<[string, unknown, string[]]> = [
    ["none: every scheme together", [all], []],
    ["every scheme: no security at all", undefined, schemes],
    ["every scheme: an empty list", [], schemes],
    ["the ones one alternative lacks", [{ "X-API-KEY": [], "X-SIGNATURE": [] }], ["X-TIMESTAMP"]],
    [
      "each scheme once, in the order first missed",
      [{ "X-API-KEY": [] }, { "X-TIMESTAMP": [] }],
      ["X-TIMESTAMP", "X-SIGNATURE", "X-API-KEY"],
    ],
    ["every scheme for an alternative that is not an object", [all, null], schemes],
  ];
  it.each(cases)("%s", (_, security, missing) => {
    expect(missingSchemes(security, schemes)).toEqual(missing);
  });
});
