// Runs the TypeScript compiler on a tsconfig, as a user's build would.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

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
