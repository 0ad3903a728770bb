// node --test scripts/no-cross-package-imports.test.ts
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { crossingImports, ownerOf, relativeImports, workspacePatterns } from "./no-cross-package-imports.ts";

describe("the relative imports of a file", () => {
  const cases: [string, string, string[]][] = [
    ["an import", 'import { a } from "../x/a.ts";', ["../x/a.ts"]],
    ["a type import", 'import type { A } from "./a.ts";', ["./a.ts"]],
    ["a re-export", 'export { a } from "../a.js";', ["../a.js"]],
    ["a namespace re-export", 'export * from "./all.js";', ["./all.js"]],
    ["a dynamic import", 'const m = await import("../m.js");', ["../m.js"]],
    ["a require", 'const m = require("../m.cjs");', ["../m.cjs"]],
    ["an import type node", 'type T = import("../t.ts").T;', ["../t.ts"]],
    ["a package by name (not relative)", 'import { a } from "@exchange-kit/spec-tools/spec";', []],
    ["a built-in", 'import { join } from "node:path";', []],
    ["a path that is only a string", 'const p = new URL("../dist/a.json", import.meta.url);', []],
  ];
  for (const [what, text, expected] of cases) {
    test(`${what}: ${JSON.stringify(expected)}`, () =>
      assert.deepEqual(
        relativeImports("x.ts", text).map((i) => i.specifier),
        expected,
      ));
  }
});

describe("the package a path lies in", () => {
  const dirs = ["/w/packages/client", "/w/packages/client-extra", "/w/openapi", "/w/openapi/nested"];
  const cases: [string, string | undefined][] = [
    ["/w/packages/client/src/a.ts", "/w/packages/client"],
    ["/w/packages/client-extra/a.ts", "/w/packages/client-extra"],
    ["/w/openapi/nested/a.ts", "/w/openapi/nested"],
    ["/w/openapi/a.ts", "/w/openapi"],
    ["/w/vitest.shared.ts", undefined],
  ];
  for (const [path, owner] of cases) test(`${path}: ${owner}`, () => assert.equal(ownerOf(path, dirs), owner));
});

describe("the patterns of pnpm-workspace.yaml", () => {
  test("are the items of the packages list, quoted or not, comments aside", () => {
    const yaml =
      'packages:\n  - "packages/*"\n  # tooling\n  - tooling/*  # private\nonlyBuiltDependencies:\n  - esbuild\n';
    assert.deepEqual(workspacePatterns(yaml), ["packages/*", "tooling/*"]);
  });
});

describe("a workspace", () => {
  const root = mkdtempSync(join(tmpdir(), "cross-imports-"));
  after(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write("pnpm-workspace.yaml", 'packages:\n  - "packages/*"\n  - "spec"\n');
  write("vitest.shared.ts", "export const x = 1;\n");
  for (const dir of ["packages/a", "packages/b", "spec"]) write(`${dir}/package.json`, "{}");
  write("packages/a/src/own.ts", 'export { x } from "../../../vitest.shared.ts";\nexport * from "./other.ts";\n');
  write("packages/a/test/uses-b.test.ts", 'import { y } from "../../b/scripts/lib.ts";\n');
  write("packages/b/node_modules/dep/index.js", 'module.exports = require("../../../a/src/own.ts");\n');
  write("spec/samples.ts", 'import { y } from "../packages/b/scripts/lib.ts";\n');

  test("reports each import of another package's file, and nothing else", () => {
    assert.deepEqual(crossingImports(root), [
      'packages/a/test/uses-b.test.ts:1 imports "../../b/scripts/lib.ts", a file of packages/b: import that package by name',
      'spec/samples.ts:1 imports "../packages/b/scripts/lib.ts", a file of packages/b: import that package by name',
    ]);
  });
});
