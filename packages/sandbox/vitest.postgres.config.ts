// The behaviour suite again, on PostgreSQL: every sandbox a test starts without its own `db` runs on a schema
// of a real server started for the run. Tests that are about SQLite files keep their files.
import { packageProject } from "../../vitest.shared.js";

export default packageProject({
  test: {
    name: "@exchange-kit/sandbox (postgres)",
    globalSetup: ["test/support/postgres-global-setup.ts"],
    // The engine's own tests start their own server.
    exclude: ["test/postgres/**", "**/node_modules/**"],
    // Two test files at once (vitest's default on 2 cores is one): a test here mostly waits on PostgreSQL,
    // the network and the sandbox's timers, so a second file runs in that time (this suite took ~6 minutes
    // one file at a time, the longest step of CI).
    maxWorkers: 2,
  },
});
