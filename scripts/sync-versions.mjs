#!/usr/bin/env node
// `changeset version` bumps package.json files; a package that reports its version at run time (the client's
// User-Agent) keeps it in src/version.ts, which this rewrites so the two never differ after a release PR.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const packages = join(resolve(fileURLToPath(import.meta.url), "../.."), "packages");
for (const dir of readdirSync(packages)) {
  const file = join(packages, dir, "src", "version.ts");
  if (!existsSync(file)) continue;
  const { version } = JSON.parse(readFileSync(join(packages, dir, "package.json"), "utf8"));
  const text = readFileSync(file, "utf8");
  const next = text.replace(/export const VERSION = "[^"]*";/, `export const VERSION = ${JSON.stringify(version)};`);
  if (next !== text) {
    writeFileSync(file, next);
    console.log(`packages/${dir}/src/version.ts -> ${version}`);
  }
}
