// The spec the types are generated from: the bundled document that @exchange-kit/openapi publishes (its build
// bundles <repo>/openapi/openapi.yaml with the Redocly CLI, every shared piece referenced as `#/components/...`),
// so the types are generated from exactly the file users install. turbo builds that package first.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readSpec } from "@exchange-kit/openapi";
import { asOpenApiSpec, type OpenApiSpec } from "@exchange-kit/spec-tools/spec";

/** The package directory (packages/types), where the generated sources go. */
export const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The bundled spec (a fresh object each call). */
export function bundleSpec(): OpenApiSpec {
  return asOpenApiSpec(readSpec());
}
