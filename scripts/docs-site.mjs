#!/usr/bin/env node
// Adds one released spec version to the published documentation site (the gh-pages branch, checked out in --site):
//
//   <site>/v<version>/      the reference and its guides (scripts/build-docs.mjs) for that spec version
//   <site>/latest/          a copy of the highest version present
//   <site>/index.html       sends readers to latest/ and lists every version
//   <site>/versions.json    ["1.1.0", "1.0.0", ...], highest first
//   <site>/.nojekyll        serve the files as they are
//
//   node scripts/docs-site.mjs --site ./site [--version 1.0.0]
//
// The version defaults to info.version of the spec being built; a version already on the site is rebuilt.
// Older versions are never touched: each stays the reference of the spec it was released with.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({
  options: {
    site: { type: "string" },
    version: { type: "string" },
    spec: { type: "string", default: "openapi/openapi.yaml" },
  },
});
if (!args.site) {
  console.error("Usage: node scripts/docs-site.mjs --site DIR [--version X.Y.Z] [--spec openapi/openapi.yaml]");
  process.exit(2);
}
const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;
const site = resolve(args.site);
const spec = resolve(root, args.spec);
const version =
  args.version ?? /^info:\n(?:[ \t]+.*\n|\n)*? {2}version:[ \t]*['"]?([^'"\s]+)/m.exec(readFileSync(spec, "utf8"))?.[1];
if (!version || !SEMVER.test(version)) {
  console.error(`Not a release version: ${version}`);
  process.exit(2);
}

const compare = (a, b) => {
  const [x, y] = [SEMVER.exec(a).slice(1).map(Number), SEMVER.exec(b).slice(1).map(Number)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};
const escapeHtml = (s) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

mkdirSync(site, { recursive: true });
const target = join(site, `v${version}`);
rmSync(target, { recursive: true, force: true });
const build = spawnSync(process.execPath, [join(root, "scripts", "build-docs.mjs"), "--spec", spec, "--out", target], {
  cwd: root,
  stdio: "inherit",
});
if (build.status !== 0) {
  console.error(`build-docs failed (${build.status ?? build.signal})`);
  process.exit(1);
}

const versions = readdirSync(site)
  .filter((name) => name.startsWith("v") && SEMVER.test(name.slice(1)) && existsSync(join(site, name, "index.html")))
  .map((name) => name.slice(1))
  .sort((a, b) => compare(b, a));
const latest = versions[0];
rmSync(join(site, "latest"), { recursive: true, force: true });
cpSync(join(site, `v${latest}`), join(site, "latest"), { recursive: true });
writeFileSync(join(site, "versions.json"), `${JSON.stringify(versions)}\n`);
writeFileSync(join(site, ".nojekyll"), "");
writeFileSync(
  join(site, "index.html"),
  `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="0; url=latest/">
<title>Exchange Service API documentation</title>
</head>
<body>
<p><a href="latest/">The latest reference (${escapeHtml(latest)})</a>. Every released spec version:</p>
<ul>
${versions.map((v) => `<li><a href="v${escapeHtml(v)}/">${escapeHtml(v)}</a></li>`).join("\n")}
</ul>
</body>
</html>
`,
);
console.log(`docs site: v${version} built; latest is ${latest}; versions: ${versions.join(", ")}`);
