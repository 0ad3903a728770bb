// pnpm lint:deps — dependency-cruiser over every file of every workspace package (packages/*, tooling/*, openapi):
// - no import circle, type-only imports included (`import type` ties two files together for a reader as much as a
//   value import does, and an API report or a bundler follows it too);
// - no relative import into another package's files (a package uses another by name, as a declared dependency, so
//   the graph pnpm, turbo and the release check see is the real one);
// - the sandbox's layers point one way (issue 39, item 1): http → api / control / dashboard →
//   domain → store → record-kinds.ts with records/ (the rows and their table specs), and no layer imports a
//   feature folder (the composition root wires them).
// Every violation is an error: there is no list of known ones (the last of the sandbox's went with issue 39).
// See CONTRIBUTING.md, "Imports point one way".

const { readFileSync } = require("node:fs");
const { join } = require("node:path");

/**
 * The workspace's packages as one regex alternative, from the `packages:` list of pnpm-workspace.yaml in `root`
 * (`packages/*` -> `packages/[^/]+`), so a package added there is checked with no edit here.
 *
 * @example
 * workspacePackages("/repo"); // "packages/[^/]+|openapi|tooling/[^/]+"
 */
function workspacePackages(root) {
  const patterns = [];
  let inList = false;
  for (const line of readFileSync(join(root, "pnpm-workspace.yaml"), "utf8").split(/\r?\n/)) {
    if (/^\S/.test(line)) inList = /^packages:\s*$/.test(line);
    const item = inList && /^\s+-\s+["']?([^"'#\s]+)["']?/.exec(line);
    if (item) patterns.push(item[1].replace(/\/\*$/, "/[^/]+").replace(/\./g, "\\."));
  }
  return patterns.join("|");
}

// dependency-cruiser reads paths relative to where it runs: the workspace root (or a test's fixture workspace).
const PACKAGE = `^(${workspacePackages(process.cwd())})/`;
const SANDBOX = "^packages/sandbox/src/";
const layer = (folders) => `${SANDBOX}(${folders})/`;
const HTTP = layer("http");
const AREAS = layer("api|control|dashboard");
const DOMAIN = layer("domain");
const STORE = layer("store");
// The registry and the rows and table specs it is made of: below every layer.
const RECORD_KINDS = `${SANDBOX}(record-kinds\\.ts$|records/)`;
const FEATURES = layer("faults|request-log|tracing|schedule|webhooks");

/** A lower layer importing a higher one (or a feature), as a forbidden rule. */
const layerRule = (name, comment, from, to) => ({
  name,
  severity: "error",
  comment,
  from: { path: from },
  to: { path: to },
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "This import closes a circle (type-only imports count): move what both files need down into a file both import.",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-relative-import-into-another-package",
      severity: "error",
      comment:
        "A relative import reaches into another workspace package's files: import that package by name, as a declared dependency.",
      from: { path: PACKAGE },
      to: { dependencyTypes: ["local"], path: PACKAGE, pathNot: "^$1/" },
    },
    layerRule(
      "sandbox-areas-not-to-http",
      "api/, control/ and dashboard/ sit below http/: http calls into them, never the other way.",
      AREAS,
      HTTP,
    ),
    layerRule(
      "sandbox-domain-not-up",
      "domain/ sits below http/ and the areas (api/, control/, dashboard/): they call it, never the other way.",
      DOMAIN,
      `${HTTP}|${AREAS}`,
    ),
    layerRule(
      "sandbox-store-not-up",
      "store/ sits below domain/, the areas and http/: they call it, never the other way.",
      STORE,
      `${HTTP}|${AREAS}|${DOMAIN}`,
    ),
    layerRule(
      "sandbox-record-kinds-below-all",
      "record-kinds.ts (with records/, the rows and table specs it is made of) is the single list every layer derives from: it imports no layer (nor a feature: next rule).",
      RECORD_KINDS,
      `${HTTP}|${AREAS}|${DOMAIN}|${STORE}`,
    ),
    layerRule(
      "sandbox-layers-not-to-features",
      "faults/, request-log/, tracing/, schedule/ and webhooks/ plug in through small interfaces that sandbox.ts wires: no layer imports them.",
      `${HTTP}|${AREAS}|${DOMAIN}|${STORE}|${RECORD_KINDS}`,
      FEATURES,
    ),
  ],
  options: {
    includeOnly: PACKAGE,
    exclude: { path: "(^|/)(node_modules|dist|coverage|\\.turbo)/" },
    doNotFollow: { path: "(^|/)node_modules/" },
    tsPreCompilationDeps: true,
    // Workspace packages resolve to their sources, as vitest and tsc see them (tsconfig.base.json's customConditions).
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["@exchange-kit/source", "import", "require", "node", "default"],
      extensions: [".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
