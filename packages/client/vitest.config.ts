import { packageProject } from "../../vitest.shared.js";

export default packageProject({
  // Hooks start a Prism mock, a Python server or a sandbox, or bundle the package, before the first test.
  test: { hookTimeout: 60_000 },
});
