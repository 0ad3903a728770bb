// Every package's tests in one vitest process (`pnpm exec vitest run`, `--project @exchange-kit/signing`, editors).
// `npm test` runs each package's own `vitest run` through turbo instead, so each keeps its build dependencies
// and its own worker pool; both read the same per-package configs, built on vitest.shared.ts.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { projects: ["packages/*", "openapi", "tooling/*"] },
});
