// Type tests: code as users write it, compiled against the built package (dist, through package.json "exports")
// with strict, exactOptionalPropertyTypes and noUncheckedIndexedAccess, under NodeNext and bundler resolution.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compile } from "./support/compile.js";

const here = dirname(fileURLToPath(import.meta.url));

describe("types under a strict user's tsconfig", () => {
  it.each(["nodenext", "bundler"])(
    "compile the consumer code with %s resolution",
    (resolution) => {
      expect(compile(join(here, "types", `tsconfig.${resolution}.json`))).toBe("");
    },
    60_000,
  );
});
