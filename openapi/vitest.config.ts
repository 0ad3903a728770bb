import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Each file spawns CLIs (redocly, prism, chromium); give them room but keep runs bounded.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The docs and mock tests start heavy processes: run files one after another on the 2-core machines.
    fileParallelism: false,
  },
});
