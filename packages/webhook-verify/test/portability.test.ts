import { build, type Metafile } from "esbuild";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The core entry must run on every runtime and must not load zod: checked on
// what a bundler actually pulls in from src/index.ts.

async function inputsOf(entry: string): Promise<{ inputs: string[]; imports: string[]; shipped: string[] }> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`../src/${entry}`, import.meta.url))],
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "neutral",
    logLevel: "silent",
    external: ["node:*"],
    // The workspace packages' sources (their "@exchange-kit/source" export condition), as the tests run them.
    conditions: ["@exchange-kit/source"],
  });
  const metafile: Metafile = result.metafile;
  const inputs = Object.keys(metafile.inputs);
  const imports = Object.values(metafile.outputs).flatMap((output) => output.imports.map((i) => i.path));
  // The files that put code into the bundle (a module read for its re-exports only contributes nothing).
  const shipped = Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path),
  );
  return { inputs, imports, shipped };
}

describe("the core entry", () => {
  it("bundles without zod and without Node built-ins", async () => {
    const { inputs, imports } = await inputsOf("index.ts");
    // zod itself, and the zod entry of @exchange-kit/types (its catalog is checked by the next test).
    expect(inputs.filter((path) => /zod/.test(path))).toEqual([]);
    expect(imports).toEqual([]);
  });

  it("takes only the generated catalog from @exchange-kit/types: none of its route tables", async () => {
    const { shipped } = await inputsOf("index.ts");
    expect(shipped.filter((path) => /(^|[\\/])types[\\/]/.test(path))).toEqual([
      expect.stringMatching(/types[\\/](dist|src)[\\/]generated[\\/]catalog\.(js|ts)$/),
    ]);
  });

  it("pulls in the signing package's portable (Web Crypto) entry on neutral platforms", async () => {
    const { inputs } = await inputsOf("index.ts");
    expect(inputs.some((path) => path.includes("signing"))).toBe(true);
  });
});

describe("the ./zod entry", () => {
  it("is where zod comes in", async () => {
    const { inputs } = await inputsOf("zod.ts");
    expect(inputs.some((path) => path.includes("zod"))).toBe(true);
  });
});
