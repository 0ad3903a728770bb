// The SDK's own Client, connected the ways editors connect: a child process over stdio (command, args and env as
// an MCP configuration gives them) or Streamable HTTP with the bearer token.
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** The built CLI (the package's tests run the command users run). */
export const cliBin = fileURLToPath(new URL("../../../cli/dist/bin.js", import.meta.url));

/** An MCP server entry as editors write it (`mcpServers.<name>` of .mcp.json, .cursor/mcp.json, ...). */
export interface ServerConfig {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** Connects the SDK Client to a server started from a configuration entry. */
export async function connectStdio(config: ServerConfig): Promise<Client> {
  const client = new Client({ name: "exchange-kit-mcp-tests", version: "0.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: { PATH: process.env.PATH ?? "", ...config.env },
      stderr: "pipe",
    }),
  );
  return client;
}

/** Connects the SDK Client over Streamable HTTP with `token`. */
export async function connectHttp(url: string, token: string): Promise<Client> {
  const client = new Client({ name: "exchange-kit-mcp-tests", version: "0.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

/** The CLI's `mcp` command as an editor's configuration starts it. */
export function cliConfig(env: Record<string, string>, ...flags: string[]): ServerConfig {
  return { command: process.execPath, args: [cliBin, "mcp", ...flags], env };
}
