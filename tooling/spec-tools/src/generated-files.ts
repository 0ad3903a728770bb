// Writing generated files: a file whose content did not change is not touched, so its time stays and a watcher
// (turbo, an editor) sees nothing to do.
import { readFileSync, writeFileSync } from "node:fs";

/**
 * Writes `content` to `path` unless it is already there; true when it changed.
 *
 * @example
 * if (writeIfChanged("src/generated/tools.ts", source)) console.log("tools.ts regenerated");
 */
export function writeIfChanged(path: string, content: string): boolean {
  let previous: string | undefined;
  try {
    previous = readFileSync(path, "utf8");
  } catch {}
  if (previous === content) return false;
  writeFileSync(path, content);
  return true;
}
