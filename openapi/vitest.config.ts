import { packageProject } from "../vitest.shared.js";

export default packageProject({
  test: {
    // Each file spawns CLIs (redocly, prism, chromium); give them room but keep runs bounded.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The docs and mock tests start heavy processes: run files one after another on the 2-core machines.
    fileParallelism: false,
  },
});
