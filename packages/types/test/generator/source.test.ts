// zod/source.ts: the layout of the emitted argument lists.
import { describe, expect, it } from "vitest";
import { list, literal } from "../../scripts/zod/source.ts";

describe("list", () => {
  it.each([
    { behaviour: "no items give the brackets alone", items: [], open: "[", close: "]", text: "[]" },
    { behaviour: "no members give empty braces", items: [], open: "{", close: "}", text: "{}" },
    { behaviour: "short items stay on one line", items: ["a", "b"], open: "[", close: "]", text: "[a, b]" },
    { behaviour: "braces get inner spaces", items: ["a: 1"], open: "{", close: "}", text: "{ a: 1 }" },
    {
      behaviour: "a call's open parenthesis is part of the line",
      items: ["x", "y"],
      open: "f(",
      close: ")",
      text: "f(x, y)",
    },
    {
      behaviour: "a line of more than 100 characters puts one item a line, each with a comma",
      items: ["a".repeat(50), "b".repeat(50)],
      open: "[",
      close: "]",
      text: `[\n  ${"a".repeat(50)},\n  ${"b".repeat(50)},\n]`,
    },
    {
      behaviour: "a line of exactly 100 characters stays",
      items: ["a".repeat(49), "b".repeat(47)],
      open: "[",
      close: "]",
      text: `[${"a".repeat(49)}, ${"b".repeat(47)}]`,
    },
    {
      behaviour: "an item that spans lines puts one item a line and indents it",
      items: ["x", "f(\n  y,\n)"],
      open: "[",
      close: "]",
      text: "[\n  x,\n  f(\n    y,\n  ),\n]",
    },
  ])("$behaviour", ({ items, open, close, text }) => {
    expect(list(items, open, close)).toBe(text);
  });

  it("writes a JSON value as a TypeScript literal", () => {
    expect(literal('say "hi"\n')).toBe('"say \\"hi\\"\\n"');
    expect(literal(null)).toBe("null");
  });
});
