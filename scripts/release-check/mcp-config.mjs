// Runs in the app that installed only @exchange-kit/mcp (whose dependency, the MCP SDK, brings the client an
// editor uses): starts the server the way editors do, from a JSON MCP configuration (`mcpServers.<name>` with
// command, args and env, as in .mcp.json or .cursor/mcp.json) given as the first argument, lists its tools, calls
// a read and a gated write, and prints one JSON line.
//
//   node mcp-config.mjs ./mcp.json
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const config = JSON.parse(readFileSync(process.argv[2], "utf8"));
const [name, server] = Object.entries(config.mcpServers)[0];
const client = new Client({ name: "release-check", version: "0.0.0" });
await client.connect(
  new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: { PATH: process.env.PATH, ...server.env },
    stderr: "inherit",
  }),
);
const { tools } = await client.listTools();
const read = await client.callTool({ name: "getPayinConfiguration", arguments: {} });
const gated = await client.callTool({
  name: "createCustomer",
  arguments: { body: { client_reference_id: "release-check-mcp", full_name: "Asha Verma" } },
});
const { resources } = await client.listResources();
await client.close();
const summary = {
  server: name,
  tools: tools.length,
  sandboxTools: tools.filter((t) => t.name.startsWith("sandbox_")).length,
  readOk: read.isError !== true,
  writeRefused: gated.isError === true && JSON.stringify(gated.content).includes("--allow-writes"),
  resources: resources.length,
};
console.log(JSON.stringify(summary));
if (!summary.readOk || !summary.writeRefused || summary.sandboxTools === 0) process.exit(1);
