// Type tests: code as users write it, compiled against the built package (dist, through package.json "exports")
// with strict, exactOptionalPropertyTypes and noUncheckedIndexedAccess, under NodeNext and bundler resolution.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

/** The compiler's diagnostics for a tsconfig (empty when it compiles). */
export function compile(project: string): string {
  try {
    execFileSync(process.execPath, [tsc, "-p", project], { encoding: "utf8", stdio: "pipe" });
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

describe("types under a strict user's tsconfig", () => {
  it.each(["nodenext", "bundler"])("compile the consumer code with %s resolution", (resolution) => {
    expect(compile(join(here, "types", `tsconfig.${resolution}.json`))).toBe("");
  }, 60_000);
});
