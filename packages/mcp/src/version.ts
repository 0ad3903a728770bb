/** This package's version, in the server's MCP `serverInfo`. scripts/sync-versions.mjs keeps it equal to package.json. */
export const VERSION = "0.0.0";
