// The reference's TypeScript code samples (openapi/code-samples/generated/samples.ts, written from the spec's
// request examples by openapi's `pnpm generate`) are code users copy: each must compile against the client, as a
// user's code under a strict tsconfig. They are checked here rather than by the spec package's tsc, which would
// make the spec package depend on the client, whose types are generated from the spec.
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "./support/compile.js";
import { packageRoot, repoRoot } from "./support/spec.js";

const samples = join(repoRoot, "openapi", "code-samples", "generated", "samples.ts");
// Inside the package, so that `@exchange-kit/client` resolves to this package through its exports.
const dir = join(packageRoot, ".reference-samples");

beforeAll(() => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  copyFileSync(samples, join(dir, "samples.ts"));
  const compilerOptions = {
    target: "ES2022",
    lib: ["ES2022", "DOM", "DOM.Iterable"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    types: ["node"],
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["samples.ts"] }, null, 2));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the reference's TypeScript code samples", () => {
  it("type-check against the built client", () => {
    expect(compile(join(dir, "tsconfig.json"))).toBe("");
  }, 120_000);
});
