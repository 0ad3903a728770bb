// What an install costs a user: the packages in node_modules and the bytes of their files (apparent sizes,
// so the figure is the same on every file system).
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

function walk(dir, found) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) {
      walk(path, found);
      continue;
    }
    found.bytes += lstatSync(path).size;
    const parts = path.split(/[\\/]/);
    // a package root: node_modules/<name>/package.json or node_modules/@scope/<name>/package.json
    if (entry.name === "package.json") {
      const up = parts.at(-3) === "node_modules" || (parts.at(-4) === "node_modules" && parts.at(-3).startsWith("@"));
      if (up) found.packages.push(parts.slice(parts.lastIndexOf("node_modules") + 1, -1).join("/"));
    }
  }
}

/** The packages (by name, nested ones included) and total bytes under `nodeModules`. */
export function installSize(nodeModules) {
  const found = { bytes: 0, packages: [] };
  walk(nodeModules, found);
  return found;
}

/** "1.23 MB" (decimal megabytes, as npm reports unpacked sizes). */
export const megabytes = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;

/** Whether an install is "within" its budget or "over" it (which fails the check). */
export function budgetVerdict({ budget }, size) {
  return size.bytes <= budget ? "within" : "over";
}
