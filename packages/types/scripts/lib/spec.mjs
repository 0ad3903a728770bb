// Loads the spec: the multi-file OpenAPI document at <repo>/openapi/openapi.yaml, bundled into one JSON
// document by the Redocly CLI (the same bundler `pnpm lint:spec` and `pnpm bundle:spec` use), with every
// shared piece referenced as `#/components/...`.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
/** The package directory (packages/types). */
export const packageDir = resolve(here, "../..");
/** The repository root, which holds openapi/ and redocly.yaml. */
const repoRoot = resolve(packageDir, "../..");
/** The root file of the spec. */
const specRoot = join(repoRoot, "openapi", "openapi.yaml");

/** Bundles the spec with the Redocly CLI and returns the bundled document (a fresh object each call). */
export function bundleSpec() {
  const require = createRequire(import.meta.url);
  const cliDir = dirname(require.resolve("@redocly/cli/package.json"));
  const bin = JSON.parse(readFileSync(join(cliDir, "package.json"), "utf8")).bin.redocly;
  const dir = mkdtempSync(join(tmpdir(), "exchange-kit-types-"));
  try {
    const out = join(dir, "openapi.json");
    execFileSync(process.execPath, [join(cliDir, bin), "bundle", specRoot, "--ext", "json", "-o", out], {
      cwd: repoRoot,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
    });
    return JSON.parse(readFileSync(out, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The component name of a local schema reference (`#/components/schemas/Name`), or undefined. */
export function schemaRefName(ref) {
  const prefix = "#/components/schemas/";
  return typeof ref === "string" && ref.startsWith(prefix) ? decodePointer(ref.slice(prefix.length)) : undefined;
}

function decodePointer(token) {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Resolves a local JSON pointer reference (`#/...`) in the document. */
function resolvePointer(doc, ref) {
  if (!ref.startsWith("#/")) throw new Error(`Only local references are supported, got ${ref}`);
  let node = doc;
  for (const token of ref.slice(2).split("/").map(decodePointer)) {
    if (node == null || typeof node !== "object" || !(token in node)) throw new Error(`Unresolvable reference ${ref}`);
    node = node[token];
  }
  return node;
}

/** Follows `$ref`s (of an object whose only other members are annotations) until a non-reference object. */
export function deref(doc, node) {
  let seen = 0;
  while (node && typeof node === "object" && typeof node.$ref === "string") {
    if (++seen > 50) throw new Error(`Reference loop at ${node.$ref}`);
    node = resolvePointer(doc, node.$ref);
  }
  return node;
}

/** The HTTP methods of a path item, in the order OpenAPI lists them. */
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * Every operation of `paths` (or of `webhooks` with `section: "webhooks"`), in document order:
 * `{ key, method, operation, pathItem }` where key is the path (or webhook name).
 */
export function listOperations(doc, section = "paths") {
  const out = [];
  for (const [key, rawItem] of Object.entries(doc[section] ?? {})) {
    const pathItem = deref(doc, rawItem);
    for (const method of HTTP_METHODS) {
      if (pathItem[method]) out.push({ key, method, operation: pathItem[method], pathItem });
    }
  }
  return out;
}

/** The `application/json` media type of a request body or response (a `$ref` is followed), or undefined. */
export function jsonMedia(doc, bodyOrResponse) {
  return deref(doc, bodyOrResponse)?.content?.["application/json"];
}
