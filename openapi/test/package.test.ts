// @exchange-kit/openapi as its users read it: the three built files, their paths and the parsed documents.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ESCAPED_KEY } from "../scripts/escaped-key.ts";
import { readDereferencedSpec, readSpec, specFiles } from "../src/index.js";
import { repoRoot } from "./helpers.js";

const packageDir = join(repoRoot, "openapi");

function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref") found.push(String(inner));
      else refsIn(inner, found);
    }
  }
  return found;
}

describe("@exchange-kit/openapi", () => {
  it("points specFiles at the three built files and the sandbox's spec", () => {
    expect(specFiles).toEqual({
      yaml: join(packageDir, "dist", "openapi.yaml"),
      json: join(packageDir, "dist", "openapi.json"),
      dereferencedJson: join(packageDir, "dist", "openapi.dereferenced.json"),
      sandboxJson: join(packageDir, "dist", "sandbox", "openapi.json"),
    });
    for (const path of Object.values(specFiles)) expect(existsSync(path), path).toBe(true);
  });

  it("reads the bundled spec with only internal references left", () => {
    const spec = readSpec();
    expect(spec.openapi).toBe("3.1.0");
    expect(spec.info.title).toBe("Exchange Service API");
    expect(Object.keys(spec.paths).length).toBeGreaterThan(10);
    const refs = refsIn(spec);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((ref) => !ref.startsWith("#/"))).toEqual([]);
  });

  it("reads the dereferenced spec with no reference at all and the same operations", () => {
    const bundled = readSpec();
    const dereferenced = readDereferencedSpec();
    expect(refsIn(dereferenced)).toEqual([]);
    expect(Object.keys(dereferenced.paths)).toEqual(Object.keys(bundled.paths));
    expect(Object.keys(dereferenced.webhooks ?? {})).toEqual(Object.keys(bundled.webhooks ?? {}));
    expect(dereferenced.info).toEqual(bundled.info);
  });

  it("ships the YAML as the same document, version and paths included", () => {
    const yaml = readFileSync(specFiles.yaml, "utf8");
    const spec = readSpec();
    expect(yaml).toMatch(
      new RegExp(`^info:\\n(?: {2}.*\\n)*? {2}version: ${spec.info.version.replace(/\./g, "\\.")}$`, "m"),
    );
    for (const path of Object.keys(spec.paths)) expect(yaml).toContain(`\n  ${path}:\n`);
  });

  it("returns a new document on every call, so one caller cannot change another one’s copy", () => {
    const first = readSpec();
    first.info.version = "changed";
    expect(readSpec().info.version).not.toBe("changed");
  });

  it("resolves every exported file path from outside the package, as an installed dependency would", () => {
    const script = [
      'for (const s of ["@exchange-kit/openapi", "@exchange-kit/openapi/openapi.json",',
      '  "@exchange-kit/openapi/openapi.yaml", "@exchange-kit/openapi/openapi.dereferenced.json"])',
      "  console.log(new URL(import.meta.resolve(s)).pathname);",
    ].join("\n");
    // Self-reference by name: Node resolves it through the package's own `exports`, as it would in node_modules.
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: packageDir,
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.stdout.trim().split("\n")).toEqual([
      join(packageDir, "dist", "index.js"),
      specFiles.json,
      specFiles.yaml,
      specFiles.dereferencedJson,
    ]);
  });
});

describe("the escaped-key guard of the build", () => {
  it("catches a key written with an escape sequence, the input V8 can misread (nodejs/node#63785)", () => {
    expect(ESCAPED_KEY.test(JSON.stringify(JSON.parse('{"h":1,"\\\\":2}'), null, 2))).toBe(true);
    expect(ESCAPED_KEY.test('{\n  "h": 1,\n  "\\u7a3c": 2\n}')).toBe(true);
    expect(ESCAPED_KEY.test('{\n  "a\\"b": 2\n}')).toBe(true);
  });

  it("lets escape sequences in values through", () => {
    expect(ESCAPED_KEY.test('{\n  "pattern": "^\\\\d+$",\n  "text": "say \\"hi\\": ok"\n}')).toBe(false);
    expect(ESCAPED_KEY.test('[\n  "a\\"b: c",\n  "\\\\"\n]')).toBe(false);
  });

  it("finds no escaped key in the published JSON files", () => {
    for (const path of [specFiles.json, specFiles.dereferencedJson]) {
      expect(ESCAPED_KEY.exec(readFileSync(path, "utf8"))?.[0] ?? null, path).toBeNull();
    }
  });
});
