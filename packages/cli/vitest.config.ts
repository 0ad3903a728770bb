import { packageProject } from "../../vitest.shared.js";

export default packageProject({
  // Each file runs commands end to end: a sandbox, a listener, Prism.
  test: { testTimeout: 30_000 },
});
