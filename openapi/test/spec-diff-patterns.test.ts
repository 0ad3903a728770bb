// Whether a new `pattern` accepts more or fewer strings than the old one: decided position by position where the two
// have the same shape, "unknown" (a person reviews it) otherwise. Every "wider" or "narrower" answer is checked
// against the patterns themselves on sample strings, so a wrong decision fails here.
import { describe, expect, it } from "vitest";
import { charSet, complement, isSubset } from "../spec-diff/regex/char-set.ts";
import { combine, comparePatterns } from "../spec-diff/regex/compare.ts";
import { parsePattern } from "../spec-diff/regex/parse.ts";

const SAMPLES = [
  "",
  "A",
  "B",
  "C",
  "AB",
  "ABC",
  "ABCD",
  "ABCDE",
  "ABCDEF",
  "abc",
  "ab",
  "a",
  "A1",
  "A1B",
  "123",
  "1.5",
  ".5",
  "12345",
  "2024-01-31",
  "31-01-2024",
  "USD",
  "EUR",
  "GBP",
  "usd",
  "a-b",
  "abc-def",
  "x y",
  "\n",
  "😀",
  "IND",
];

describe("comparing two patterns", () => {
  it.each([
    ["^(A|B)$", "^(A|B|C)$", "wider"],
    ["^(A|B|C)$", "^(A|B)$", "narrower"],
    ["^(?:USD|EUR)$", "^(USD|EUR|GBP)$", "wider"],
    ["^(USD|EUR)$", "^(EUR|USD)$", "equal"],
    ["^[A-Z]{3}$", "^[A-Z]{3,5}$", "wider"],
    ["^[A-Z]{3,5}$", "^[A-Z]{3}$", "narrower"],
    ["^[A-Z]{3}$", "^[A-Z]{3,}$", "wider"],
    ["^[A-Z]{2,4}$", "^[A-Z]{3,5}$", "unknown"],
    ["^[A-Z]+$", "^[A-Z0-9]+$", "wider"],
    ["^[A-Z0-9]+$", "^[A-Z]+$", "narrower"],
    ["^[A-Z]+$", "^[a-z]+$", "unknown"],
    ["^\\d+$", "^[0-9]+$", "equal"],
    ["^\\d*$", "^\\d+$", "narrower"],
    ["^[^a]$", "^[^ab]$", "narrower"],
    ["^\\w$", "^.$", "wider"],
    ["^\\u{1F600}$", "^.$", "wider"],
    ["^[A-Z]{3}$", "^[A-Z]{3}$|^[a-z]{3}$", "wider"],
    ["^\\d{4}-\\d{2}-\\d{2}$", "^\\d{2}-\\d{2}-\\d{4}$", "unknown"],
    ["^\\d*\\.?\\d+$", "^\\d+(\\.\\d+)?$", "unknown"],
    ["^[a-z]+$", "^[a-z]+(-[a-z]+)*$", "unknown"],
    ["^x$", "x", "unknown"],
    ["^a+$", "^(?=a)a+$", "unknown"],
    ["^(a)\\1$", "^(a)\\1?$", "unknown"],
    ["[", "a", "unknown"],
  ])("%s -> %s accepts %s strings", (before, after, relation) => {
    expect(comparePatterns(before, after)).toBe(relation);
  });

  it.each([
    ["^(A|B)$", "^(A|B|C)$"],
    ["^[A-Z]{3}$", "^[A-Z]{3,5}$"],
    ["^[A-Z]+$", "^[A-Z0-9]+$"],
    ["^\\d*$", "^\\d+$"],
    ["^[^a]$", "^[^ab]$"],
    ["^\\w$", "^.$"],
    ["^(USD|EUR)$", "^(EUR|USD)$"],
  ])("agrees with the patterns on sample strings: %s -> %s", (before, after) => {
    const relation = comparePatterns(before, after);
    const old = new RegExp(before, "u");
    const current = new RegExp(after, "u");
    for (const sample of SAMPLES) {
      if (relation === "wider" || relation === "equal") expect(!old.test(sample) || current.test(sample)).toBe(true);
      if (relation === "narrower" || relation === "equal") expect(!current.test(sample) || old.test(sample)).toBe(true);
    }
  });

  it.each([
    ["equal", "wider", "wider"],
    ["narrower", "equal", "narrower"],
    ["wider", "wider", "wider"],
    ["wider", "narrower", "unknown"],
    ["unknown", "equal", "unknown"],
  ] as const)("combines parts related %s and %s into %s", (a, b, whole) => {
    expect(combine(a, b)).toBe(whole);
  });
});

describe("reading a pattern", () => {
  it("reads alternatives, groups, classes and repetitions", () => {
    const [sequence] = parsePattern("^(A|B)[0-9]{2,}$")!;
    expect(sequence!.map((t) => [t.node.kind, t.min, t.max])).toEqual([
      ["anchor", 1, 1],
      ["group", 1, 1],
      ["set", 2, Infinity],
      ["anchor", 1, 1],
    ]);
  });

  it.each(["^(?=a)", "(?<!a)b", "\\bword", "(a)\\1", "\\p{L}", "["])(
    "leaves %s unread (beyond regular syntax, or invalid)",
    (p) => {
      expect(parsePattern(p)).toBeUndefined();
    },
  );
});

describe("character sets", () => {
  it("merges overlapping and adjacent ranges", () => {
    expect(
      charSet([
        [5, 9],
        [0, 3],
        [4, 4],
        [20, 30],
      ]),
    ).toEqual([
      [0, 9],
      [20, 30],
    ]);
  });

  it("complements over every code point", () => {
    expect(complement(charSet([[0, 9]]))).toEqual([[10, 0x10ffff]]);
  });

  it("includes a set in another only when every range is covered", () => {
    expect(
      isSubset(
        charSet([[0x41, 0x5a]]),
        charSet([
          [0x30, 0x39],
          [0x41, 0x5a],
        ]),
      ),
    ).toBe(true);
    expect(isSubset(charSet([[0x41, 0x5b]]), charSet([[0x41, 0x5a]]))).toBe(false);
  });
});
