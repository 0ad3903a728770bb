import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as root from "../src/index.js";
import * as zodEntry from "../src/zod.js";

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The workspace's pack hook: the manifest as published, without the workspace-only source condition. */
const { hooks } = createRequire(import.meta.url)("../../../.pnpmfile.cjs") as {
  hooks: { beforePacking<T>(manifest: T): T };
};

/** Every module specifier a source file imports or re-exports at runtime (type-only imports left out). */
function runtimeImports(file: string): string[] {
  const source = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of source.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?from\s+["']([^"']+)["']/gms)) {
    if (!m[2]) out.push(m[3]!);
  }
  for (const m of source.matchAll(/^\s*import\s+["']([^"']+)["']/gm)) out.push(m[1]!);
  return out;
}

/** The runtime module graph of an entry: the relative modules it loads and the packages they import. */
function graph(entry: string): { files: string[]; packages: Set<string> } {
  const files: string[] = [];
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.includes(file)) return;
    files.push(file);
    for (const spec of runtimeImports(file)) {
      if (spec.startsWith(".")) visit(join(dirname(file), spec.replace(/\.js$/, ".ts")));
      else packages.add(spec);
    }
  };
  visit(join(packageDir, "src", entry));
  return { files, packages };
}

describe("the package entries", () => {
  it('load no zod from "." at runtime, so users of the types never pay for zod', () => {
    const { files, packages } = graph("index.ts");
    expect(files.length).toBeGreaterThan(1);
    expect([...packages]).toEqual([]);
  });

  it('load zod from "./zod"', () => {
    expect(graph("zod.ts").packages).toEqual(new Set(["zod"]));
  });

  it('export the operation index and routes, the err codes, isErrCode and the catalog from "." and nothing else at runtime', () => {
    expect(Object.keys(root).sort()).toEqual([
      "errCodes",
      "isErrCode",
      "operationIndex",
      "operationRoutes",
      "recordStatuses",
      "webhookEventTypes",
      "webhookEventsByType",
      "webhookMetadataRules",
    ]);
  });

  it('export a schema per component, the webhook union and the lookup records from "./zod"', () => {
    const names = Object.keys(zodEntry);
    expect(names).toEqual(
      expect.arrayContaining([
        "CustomerSchema",
        "WebhookEventSchema",
        "WebhookEventBaseSchema",
        "componentSchemas",
        "webhookSchemas",
        "operationSchemas",
        "responseSchemas",
      ]),
    );
    for (const name of names) expect(name.endsWith("Schema") || name.endsWith("Schemas"), name).toBe(true);
  });

  it("declare both entries in the published package.json with types first and ESM only", () => {
    const pkg = hooks.beforePacking(JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")));
    expect(pkg.type).toBe("module");
    for (const entry of [".", "./zod"]) {
      expect(Object.keys(pkg.exports[entry])).toEqual(["types", "default"]);
    }
  });

  it("leave zod to the app: an optional peer dependency, so installing the types never installs zod", () => {
    const pkg = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
    expect(pkg.dependencies?.zod).toBeUndefined();
    expect(pkg.peerDependencies).toEqual({ zod: expect.stringMatching(/^\^4\./) });
    expect(pkg.peerDependenciesMeta).toEqual({ zod: { optional: true } });
  });
});
