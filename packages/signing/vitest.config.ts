import { packageProject } from "../../vitest.shared.js";

export default packageProject({
  test: {
    // The runtime and vector tests run the built package (dist/): built here when older than src/.
    globalSetup: ["test/global-setup.ts"],
    typecheck: { enabled: true },
    // Property tests scale with FUZZ_SCALE; runtime tests may download node@24/deno/bun once.
    testTimeout: 120_000 * Number(process.env.FUZZ_SCALE ?? 1),
    hookTimeout: 300_000,
  },
});
