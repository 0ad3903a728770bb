// The behaviour suite again, on PostgreSQL: every sandbox a test starts without its own `db` runs on a schema
// of a real server started for the run. Tests that are about SQLite files keep their files.
import { packageProject } from "../../vitest.shared.js";

export default packageProject({
  test: {
    name: "@exchange-kit/sandbox (postgres)",
    globalSetup: ["test/support/postgres-global-setup.ts"],
    // The engine's own tests start their own server.
    exclude: ["test/postgres/**", "**/node_modules/**"],
  },
});
