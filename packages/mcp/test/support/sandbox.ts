// A real sandbox in this process (in memory, automatic progress off: the tests move records with the control
// API), and the environment a server started by an editor would get.
import { createSandbox } from "@exchange-kit/sandbox";

export const credentials = { apiKey: "ek_mcp_test_key", apiSecret: "ek-mcp-test-secret-5d0c1b2a9e" };

export type Sandbox = Awaited<ReturnType<typeof createSandbox>>;

export function startSandbox(): Promise<Sandbox> {
  return createSandbox({ organizations: [{ name: "MCP tests", ...credentials }], autoProgressMs: false });
}

/** The variables the server reads, as an MCP configuration's `env` gives them. */
export function serverEnv(sandbox: Sandbox): Record<string, string> {
  return {
    EXCHANGE_BASE_URL: sandbox.url,
    EXCHANGE_API_KEY: credentials.apiKey,
    EXCHANGE_API_SECRET: credentials.apiSecret,
  };
}
