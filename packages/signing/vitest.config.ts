import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // test/*.test-d.ts hold type-level tests, checked by tsc as part of the run.
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
    // Property tests scale with FUZZ_SCALE; runtime tests may download node@24/deno/bun once.
    testTimeout: 120_000 * Number(process.env.FUZZ_SCALE ?? 1),
    hookTimeout: 300_000,
  },
});
