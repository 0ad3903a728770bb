import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

// Runtime tests import dist/, so build when dist is missing or older than src.
export default function setup(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const mtime = (p: string) => {
    try {
      return statSync(root + p).mtimeMs;
    } catch {
      return 0;
    }
  };
  const built = Math.min(mtime("dist/index.js"), mtime("dist/node.js"));
  const newest = Math.max(...readdirSync(root + "src").map((f) => mtime("src/" + f)));
  if (built < newest) {
    const tsc = createRequire(root + "package.json").resolve("typescript/bin/tsc");
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  }
}
