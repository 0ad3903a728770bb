// node --test scripts/dependency-rules.test.ts
// The repository's dependency-cruiser rules (.dependency-cruiser.cjs), run by the real depcruise on small workspaces
// written to a temporary directory: what each rule reports (there is no baseline of known violations: any one fails
// `pnpm lint:deps`).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const depcruise = join(root, "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs");
const config = join(root, ".dependency-cruiser.cjs");
const scratch = mkdtempSync(join(tmpdir(), "dependency-rules-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A workspace of packages/*, tooling/* and openapi holding `files` (path -> text). */
function workspace(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name);
  const all = { "pnpm-workspace.yaml": 'packages:\n  - "packages/*"\n  - "openapi"\n  - "tooling/*"\n', ...files };
  for (const [path, text] of Object.entries(all)) write(dir, path, text);
  return dir;
}

function write(dir: string, path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

function cruise(dir: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [depcruise, ".", "--config", config, ...args], {
    cwd: dir,
    encoding: "utf8",
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

interface Violation {
  rule: { name: string; severity: string };
  from: string;
  to: string;
}

/** Every violation in a workspace, as "rule: from -> to". */
function violationsOf(dir: string): string[] {
  const { output } = cruise(dir, "--output-type", "json");
  const violations: Violation[] = JSON.parse(output.slice(output.indexOf("{"))).summary.violations;
  return violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
}

const CIRCLE = {
  // A type-only import closes the circle: it counts.
  "packages/a/src/circle-a.ts": 'import type { B } from "./circle-b.js";\nexport const a = 1;\nexport type A = B;\n',
  "packages/a/src/circle-b.ts": 'import { a } from "./circle-a.js";\nexport type B = typeof a;\n',
};

describe("the rules", () => {
  let found: string[] = [];
  before(() => {
    const dir = workspace("rules", {
      ...CIRCLE,
      "root.ts": "export const r = 1;\n",
      "packages/a/src/own.ts": 'export { a } from "./circle-a.js";\nexport { r } from "../../../root.ts";\n',
      "packages/a/test/uses-b.test.ts": 'import { y } from "../../b/src/lib.ts";\nexport const z = y;\n',
      "packages/b/src/lib.ts": "export const y = 1;\n",
      "openapi/samples.ts": 'export type Y = typeof import("../packages/b/src/lib.ts").y;\n',
      "packages/sandbox/src/http/route.ts": "export type Route = string;\n",
      "packages/sandbox/src/http/server.ts": 'import { view } from "../api/views.js";\nexport const s = view;\n',
      "packages/sandbox/src/api/views.ts":
        'import type { Route } from "../http/route.js";\nexport const view: Route = "v";\n',
      "packages/sandbox/src/domain/clock.ts":
        'import { table } from "../store/tables.js";\nexport const now = table;\n',
      "packages/sandbox/src/domain/magic.ts": 'import { view } from "../api/views.js";\nexport const m = view;\n',
      "packages/sandbox/src/domain/progress.ts":
        'import type { Plan } from "../faults/plan.js";\nexport type P = Plan;\n',
      "packages/sandbox/src/store/tables.ts": "export const table = 1;\n",
      "packages/sandbox/src/store/schema.ts": 'import { now } from "../domain/clock.js";\nexport const s = now;\n',
      "packages/sandbox/src/faults/plan.ts":
        'import { table } from "../store/tables.js";\nexport type Plan = typeof table;\n',
      "packages/sandbox/src/record-kinds.ts": 'import { now } from "./domain/clock.js";\nexport const kinds = [now];\n',
      "packages/sandbox/src/records/rows.ts":
        'import type { Plan } from "../faults/plan.js";\nexport type Row = Plan;\n',
      "packages/sandbox/src/records/table-spec.ts":
        'import { table } from "../store/tables.js";\nexport const spec = table;\n',
      "packages/sandbox/src/sandbox.ts": 'import type { Plan } from "./faults/plan.js";\nexport type S = Plan;\n',
    });
    found = violationsOf(dir);
  });
  const expected: [string, string][] = [
    // One violation per circle, on the import depcruise meets first.
    ["a circle closed by a type-only import", "no-circular: packages/a/src/circle-a.ts -> packages/a/src/circle-b.ts"],
    [
      "a test's relative import of another package's file",
      "no-relative-import-into-another-package: packages/a/test/uses-b.test.ts -> packages/b/src/lib.ts",
    ],
    [
      "an import type node into another package, from a package at the root (openapi)",
      "no-relative-import-into-another-package: openapi/samples.ts -> packages/b/src/lib.ts",
    ],
    [
      "an area importing http",
      "sandbox-areas-not-to-http: packages/sandbox/src/api/views.ts -> packages/sandbox/src/http/route.ts",
    ],
    [
      "the domain importing an area",
      "sandbox-domain-not-up: packages/sandbox/src/domain/magic.ts -> packages/sandbox/src/api/views.ts",
    ],
    [
      "the store importing the domain",
      "sandbox-store-not-up: packages/sandbox/src/store/schema.ts -> packages/sandbox/src/domain/clock.ts",
    ],
    [
      "record-kinds.ts importing a layer",
      "sandbox-record-kinds-below-all: packages/sandbox/src/record-kinds.ts -> packages/sandbox/src/domain/clock.ts",
    ],
    [
      "records/ (the registry's rows and table specs) importing a layer",
      "sandbox-record-kinds-below-all: packages/sandbox/src/records/table-spec.ts -> packages/sandbox/src/store/tables.ts",
    ],
    [
      "records/ importing a feature folder",
      "sandbox-layers-not-to-features: packages/sandbox/src/records/rows.ts -> packages/sandbox/src/faults/plan.ts",
    ],
    [
      "a layer importing a feature folder",
      "sandbox-layers-not-to-features: packages/sandbox/src/domain/progress.ts -> packages/sandbox/src/faults/plan.ts",
    ],
  ];
  for (const [what, violation] of expected)
    test(`report ${what}`, () => assert.ok(found.includes(violation), found.join("\n")));

  test("report nothing else: own files, root files, downward imports and the composition root pass", () =>
    assert.deepEqual(found, expected.map(([, violation]) => violation).sort()));
});
