// node --test scripts/complexity.test.ts
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { allowListOf, findProblems, measure } from "./complexity.ts";

const figuresOf = (text: string) =>
  measure("x.ts", text).map(({ name, lines, complexity }) => ({ name, lines, complexity }));

describe("complexity counts one path per branch", () => {
  const cases: [string, string, number][] = [
    ["a straight function", "function f() { return 1; }", 1],
    ["an if", "function f(a) { if (a) return 1; return 2; }", 2],
    ["an if with an else", "function f(a) { if (a) return 1; else return 2; }", 2],
    ["a conditional expression", "function f(a) { return a ? 1 : 2; }", 2],
    [
      "each non-default case",
      "function f(a) { switch (a) { case 1: return 1; case 2: return 2; default: return 3; } }",
      3,
    ],
    [
      "loops of every kind",
      "function f(a) { for (;;) {} for (const x of a) {} for (const k in a) {} while (a) {} do {} while (a); }",
      6,
    ],
    ["a catch", "function f() { try { g(); } catch { h(); } }", 2],
    ["short-circuit operators", "function f(a, b) { return (a && b) || (a ?? b); }", 4],
    ["logical assignments", "function f(a) { a.x ??= 1; a.y ||= 2; a.z &&= 3; }", 4],
  ];
  for (const [what, text, expected] of cases) {
    test(`${what}: ${expected}`, () => assert.equal(figuresOf(text)[0]?.complexity, expected));
  }

  test("a nested function's branches count for it, not for the function around it", () => {
    const [outer, inner] = figuresOf("function f(a) { const g = (b) => (b ? 1 : 2); return a ? g : null; }");
    assert.deepEqual(outer, { name: "f", lines: 1, complexity: 2 });
    assert.deepEqual(inner, { name: "f.g", lines: 1, complexity: 2 });
  });
});

describe("functions are named by where they stand", () => {
  test("methods, accessors, constructors and callbacks get readable, stable names", () => {
    const text = [
      "class A {",
      "  constructor() {}",
      "  get v() { return 1; }",
      "  run() { [1].map((x) => x); }",
      "}",
      "const o = { build: function () {} };",
    ].join("\n");
    assert.deepEqual(
      figuresOf(text).map((f) => f.name),
      ["constructor", "get v", "run", "run.(callback of [1].map)", "build"],
    );
  });

  test("overload signatures are not functions that run", () => {
    const text = "function f(a: string): string;\nfunction f(a: number): number;\nfunction f(a: any) { return a; }";
    assert.deepEqual(figuresOf(text), [{ name: "f", lines: 1, complexity: 1 }]);
  });

  test("a second function of the same name gets a number, not the first's figures", () => {
    assert.deepEqual(
      figuresOf("it(() => {}); it(() => {});").map((f) => f.name),
      ["(callback of it)", "(callback of it)#2"],
    );
  });

  test("lines run from the function's first line to its last", () => {
    assert.equal(figuresOf("function f() {\n  a();\n  b();\n}")[0]?.lines, 4);
  });
});

describe("the allow-list only shrinks", () => {
  const long = { file: "x.ts", name: "f", line: 1, lines: 80, complexity: 3 };
  const fine = { ...long, lines: 20 };

  test("a new offender is a problem", () => {
    assert.match(findProblems([long], [long], {}).join("\n"), /x\.ts:1 f: 80 lines, complexity 3/);
  });

  test("an allowed offender that did not grow passes", () => {
    assert.deepEqual(findProblems([long], [long], { "x.ts#f": { lines: 80, complexity: 3 } }), []);
  });

  test("an allowed offender that grew is a problem", () => {
    assert.match(
      findProblems([long], [long], { "x.ts#f": { lines: 70, complexity: 3 } }).join(),
      /worse than its allowed 70/,
    );
  });

  test("an entry whose function is now within the limits must be removed", () => {
    assert.match(findProblems([], [fine], { "x.ts#f": { lines: 80, complexity: 3 } }).join(), /now within the limits/);
  });

  test("an entry whose function is gone must be removed", () => {
    assert.match(findProblems([], [], { "x.ts#f": { lines: 80, complexity: 3 } }).join(), /no longer exists/);
  });
});

describe("rewriting the allow-list", () => {
  const figures = (lines: number, complexity: number) => ({ file: "x.ts", name: "f", line: 1, lines, complexity });

  test("a ceiling comes down with a function that shrank", () => {
    assert.deepEqual(allowListOf([figures(70, 3)], { "x.ts#f": { lines: 80, complexity: 3 } }), {
      "x.ts#f": { lines: 70, complexity: 3 },
    });
  });

  test("a ceiling never rises with a function that grew", () => {
    assert.deepEqual(allowListOf([figures(90, 20)], { "x.ts#f": { lines: 80, complexity: 3 } }), {
      "x.ts#f": { lines: 80, complexity: 3 },
    });
  });

  test("a function over only one limit keeps the other at the limit, not below it", () => {
    assert.deepEqual(allowListOf([figures(70, 2)], { "x.ts#f": { lines: 80, complexity: 3 } }), {
      "x.ts#f": { lines: 70, complexity: 3 },
    });
  });
});
