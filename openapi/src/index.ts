// @exchange-kit/openapi: where the published spec files are, and the documents parsed.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The parts of an OpenAPI 3.1 document every consumer reads; the rest is there, untyped. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  paths: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/** Absolute paths of the three files this package ships (also exported by path, e.g. `@exchange-kit/openapi/openapi.json`). */
export interface SpecFiles {
  /** The bundled spec as YAML: one file, internal `$ref`s kept. */
  yaml: string;
  /** The bundled spec as JSON (same document as `yaml`). */
  json: string;
  /** Every `$ref` replaced by its target, for tools that cannot follow references. */
  dereferencedJson: string;
  /**
   * The local sandbox's spec (JSON): the published one with the sandbox's overlay applied (the members it requires
   * where the interface leaves them open, its own query parameters, loopback webhook URLs). Not the service's contract.
   */
  sandboxJson: string;
}

// `../dist/` from dist/index.js is dist/ itself; the same URL from src/index.ts (the tests) finds the built files.
const file = (name: string) => fileURLToPath(new URL(`../dist/${name}`, import.meta.url));

/**
 * The files of the spec on this machine, e.g. to hand to Prism, a generator or a diff tool.
 *
 * @example
 * import { specFiles } from "@exchange-kit/openapi";
 * spawn("prism", ["mock", specFiles.yaml]);
 */
export const specFiles: SpecFiles = Object.freeze({
  yaml: file("openapi.yaml"),
  json: file("openapi.json"),
  dereferencedJson: file("openapi.dereferenced.json"),
  sandboxJson: file("sandbox/openapi.json"),
});

// The build refuses any object key with an escape sequence in its text, so the native JSON.parse reads these
// files exactly despite V8's escaped-key bug (nodejs/node#63785).
const parse = (path: string) => JSON.parse(readFileSync(path, "utf8")) as OpenApiDocument;

/**
 * Reads and parses the bundled spec (a new object on every call: keep it rather than calling it per request).
 *
 * @example
 * import { readSpec } from "@exchange-kit/openapi";
 * const spec = readSpec();
 * console.log(spec.info.version, Object.keys(spec.paths).length);
 */
export function readSpec(): OpenApiDocument {
  return parse(specFiles.json);
}

/**
 * Reads and parses the dereferenced spec: no `$ref` anywhere, shared schemas repeated where they are used.
 *
 * @example
 * import { readDereferencedSpec } from "@exchange-kit/openapi";
 * const schema = readDereferencedSpec().paths["/cms/api/v1/customer"]?.post;
 */
export function readDereferencedSpec(): OpenApiDocument {
  return parse(specFiles.dereferencedJson);
}

/**
 * Reads and parses the local sandbox's spec: the published one with the sandbox's own rules applied (an OpenAPI
 * Overlay). For the sandbox and the tools that talk to it, never for a client of the real service.
 *
 * @example
 * import { readSandboxSpec } from "@exchange-kit/openapi";
 * const sandbox = readSandboxSpec();
 */
export function readSandboxSpec(): OpenApiDocument {
  return parse(specFiles.sandboxJson);
}

/**
 * The sandbox's spec with every `x-sandbox-required` list folded into its schema's `required` (in place, and
 * returned): the members the sandbox requires where the interface leaves them open, required as a validator reads
 * them. The sandbox, the contract checker's `against: "sandbox"` and the mock's sandbox mode read it this way.
 *
 * @example
 * import { foldSandboxRequired, readSandboxSpec } from "@exchange-kit/openapi";
 * const sandbox = foldSandboxRequired(readSandboxSpec());
 */
export function foldSandboxRequired<T>(document: T): T {
  const seen = new Set<object>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const schema = node as Record<string, unknown>;
    const extra = schema["x-sandbox-required"];
    if (Array.isArray(extra) && extra.length > 0) {
      const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
      schema.required = [...required, ...extra.filter((name) => !required.includes(name))];
    }
    for (const value of Object.values(schema)) visit(value);
  };
  visit(document);
  return document;
}
