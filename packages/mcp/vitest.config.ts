import { packageProject } from "../../vitest.shared.js";

export default packageProject({
  // Hooks start a sandbox and, for the stdio tests, the server in a child process before the first test.
  test: { hookTimeout: 60_000 },
});
