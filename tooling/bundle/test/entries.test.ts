import { describe, expect, it } from "vitest";
import { bundleEntries } from "../src/entries.ts";

const at = (source: string, built: string) => ({ "@exchange-kit/source": source, types: "x.d.ts", default: built });

describe("bundleEntries", () => {
  it.each([
    ["one root export", { ".": at("./src/index.ts", "./dist/index.js") }, [{ source: "src/index.ts", out: "index" }]],
    [
      "subpaths in the order of the map",
      { ".": at("./src/index.ts", "./dist/index.js"), "./zod": at("./src/zod.ts", "./dist/zod.js") },
      [
        { source: "src/index.ts", out: "index" },
        { source: "src/zod.ts", out: "zod" },
      ],
    ],
    [
      "nested conditions (node/default) and one module exported under two subpaths, once",
      {
        ".": { node: at("./src/node.ts", "./dist/node.js"), default: at("./src/index.ts", "./dist/index.js") },
        "./node": at("./src/node.ts", "./dist/node.js"),
      },
      [
        { source: "src/node.ts", out: "node" },
        { source: "src/index.ts", out: "index" },
      ],
    ],
    ["./package.json and other plain strings are not entries", { "./package.json": "./package.json" }, []],
  ])("%s", (_name, exports, expected) => {
    expect(bundleEntries({ exports: exports as never })).toEqual(expected);
  });

  it("refuses an export whose built module is not a dist/*.js file", () => {
    expect(() => bundleEntries({ exports: { ".": at("./src/index.ts", "./lib/index.cjs") } })).toThrow(
      'export "./lib/index.cjs" is not a ./dist/*.js file',
    );
  });
});
