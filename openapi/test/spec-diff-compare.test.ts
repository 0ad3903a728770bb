// The comparison with Optic (openapi/spec-diff/compare/): the mutations apply to the bundled spec, the verdicts
// recorded for spec:diff are what spec:diff says today, and the README shows the recorded table. (Optic's column is
// measured by `node openapi/spec-diff/compare/cli.ts`, which installs and runs Optic: half an hour, not a test.)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { applyPatch, PatchError } from "../spec-diff/compare/json-patch.ts";
import { compareDir, patchHash, readMutations, readResults } from "../spec-diff/compare/mutations.ts";
import { comparisonTable, tableIn, withTable } from "../spec-diff/compare/table.ts";
import { hasChange, isRight, opticVerdict, ourVerdict } from "../spec-diff/compare/verdicts.ts";
import { diffSpecs } from "../spec-diff/diff.ts";
import { loadSpec } from "../spec-diff/load.ts";
import type { Change, JsonObject } from "../spec-diff/types.ts";
import { specRoot } from "./helpers.js";

describe("JSON Patch", () => {
  const doc = () => ({ a: { b: 1, list: [1, 2] }, "x/y": { "~k": true } }) as JsonObject;
  it.each([
    ["add a member", [{ op: "add", path: "/a/c", value: 2 }], { a: { b: 1, c: 2, list: [1, 2] } }],
    ["append to an array", [{ op: "add", path: "/a/list/-", value: 3 }], { a: { b: 1, list: [1, 2, 3] } }],
    ["insert into an array", [{ op: "add", path: "/a/list/0", value: 0 }], { a: { b: 1, list: [0, 1, 2] } }],
    ["remove a member", [{ op: "remove", path: "/a/b" }], { a: { list: [1, 2] } }],
    ["remove from an array", [{ op: "remove", path: "/a/list/0" }], { a: { b: 1, list: [2] } }],
    ["replace a member", [{ op: "replace", path: "/a/b", value: 5 }], { a: { b: 5, list: [1, 2] } }],
    ["move a member", [{ op: "move", from: "/a/b", path: "/a/z" }], { a: { list: [1, 2], z: 1 } }],
    ["read escaped keys", [{ op: "remove", path: "/x~1y/~0k" }], { "x/y": {} }],
  ] as const)("can %s", (_name, patch, expected) => {
    expect(applyPatch(doc(), patch as never)).toMatchObject(expected);
  });

  it("leaves the document it was given unchanged", () => {
    const original = doc();
    applyPatch(original, [{ op: "remove", path: "/a" }]);
    expect(original).toEqual(doc());
  });

  it.each([
    ["an add over a member that exists", { op: "add", path: "/a/b", value: 2 }, /exists/],
    ["a replace of a member that does not", { op: "replace", path: "/a/q", value: 2 }, /nothing at/],
    ["a path through nothing", { op: "remove", path: "/none/b" }, /no object or array/],
  ] as const)("refuses %s", (_name, operation, message) => {
    expect(() => applyPatch(doc(), [operation as never])).toThrow(PatchError);
    expect(() => applyPatch(doc(), [operation as never])).toThrow(message);
  });
});

describe("verdicts", () => {
  const change = (extra: Partial<Change>): Change => ({
    rule: "r",
    breaking: false,
    where: "w",
    message: "m",
    ...extra,
  });
  it.each([
    ["a breaking change", [change({ breaking: true }), change({})], "breaking"],
    ["a change to review", [change({ review: true })], "review"],
    ["a change that breaks nobody", [change({})], "not breaking"],
    ["nothing", [], "silent"],
  ] as const)("ours is %s for %s", (_name, changes, verdict) => {
    expect(ourVerdict(changes)).toBe(verdict);
  });

  it.each([
    ["a failed check (exit 1)", 1, { operations: [] }, "breaking"],
    ["a change with every check passed", 0, { operations: [{ name: "GET /x", change: "changed" }] }, "not breaking"],
    ["no change at all", 0, { operations: [] }, "silent"],
  ])("Optic's is %s for %s", (_name, code, changelog, verdict) => {
    expect(opticVerdict(code as number, changelog)).toBe(verdict);
  });

  it("finds a change anywhere in Optic's changelog", () => {
    expect(hasChange({ operations: [{ responses: [{ contentTypes: [{ change: "changed" }] }] }] })).toBe(true);
    expect(hasChange({ operations: [{ name: "GET /x", attributes: [] }] })).toBe(false);
  });

  it.each([
    ["breaking", "breaking", true],
    ["breaking", "review", false],
    ["breaking", "not breaking", false],
    ["not breaking", "not breaking", true],
    ["not breaking", "review", true],
    ["not breaking", "silent", false],
    ["not breaking", "breaking", false],
  ] as const)("a %s change classed %s is right: %s", (expected, verdict, right) => {
    expect(isRight(expected, verdict)).toBe(right);
  });
});

describe("the mutation set and its recorded results", () => {
  const mutations = readMutations();
  const results = readResults();
  const recorded = new Map(results.mutations.map((r) => [r.id, r]));
  let base: JsonObject;
  beforeAll(() => {
    base = loadSpec(specRoot);
  });

  it("has at least 24 mutations, each with its own id", () => {
    expect(mutations.length).toBeGreaterThanOrEqual(24);
    expect(new Set(mutations.map((m) => m.id)).size).toBe(mutations.length);
  });

  it.each(mutations.map((m) => [m.id, m] as const))(
    "%s applies to the bundled spec and is recorded as spec:diff classes it now",
    (id, mutation) => {
      const changes = diffSpecs(base, applyPatch(base, mutation.patch));
      expect(changes.length).toBeGreaterThan(0);
      expect(recorded.get(id)).toMatchObject({
        patch: patchHash(mutation),
        ours: ourVerdict(changes),
        rules: [...new Set(changes.map((c) => c.rule))],
      });
    },
  );

  it("is shown in the spec-diff README as recorded", () => {
    const readme = readFileSync(join(compareDir, "..", "README.md"), "utf8");
    expect(tableIn(readme)).toBe(comparisonTable(mutations, results));
    expect(withTable(readme, comparisonTable(mutations, results))).toBe(readme);
  });
});
