// What every package's tests share; each package's vitest.config.ts passes only what differs to packageProject.
import { defineProject, mergeConfig, type UserWorkspaceConfig } from "vitest/config";

/**
 * The export condition that points a workspace package at its TypeScript sources (`src/*.ts`): tests import
 * `@exchange-kit/<package>` and run the sources, theirs and their dependencies', with nothing built first.
 * tsconfig.base.json gives tsc the same condition; published manifests drop it (.pnpmfile.cjs).
 */
export const sourceCondition = "@exchange-kit/source";

const shared = defineProject({
  // Prepended to Vite's default conditions (configs merge arrays by concatenation), for the module runner and
  // (ssr) for the `--conditions` vitest hands to its workers.
  resolve: { conditions: [sourceCondition] },
  ssr: { resolve: { conditions: [sourceCondition] } },
  test: {
    include: ["test/**/*.test.ts"],
    // test/*.test-d.ts hold type-level tests, checked by tsc with the package's tsconfig.json as part of the run
    // in the packages that have them (`typecheck: { enabled: true }`).
    typecheck: { include: ["test/**/*.test-d.ts"] },
    // Most files start servers or child processes on a 2-core CI shared by every package's run.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});

/** A package's test project: the shared settings with the package's own on top. */
export function packageProject(config: UserWorkspaceConfig = {}): UserWorkspaceConfig {
  return mergeConfig(shared, defineProject(config));
}
