// exchange-kit mcp: the MCP server of @exchange-kit/mcp, on stdio (what editors start) or Streamable HTTP. In
// stdio mode stdout is the protocol's channel, so every line for a person goes to stderr.
import { ExchangeConfigurationError } from "@exchange-kit/client";
import type * as McpPackage from "@exchange-kit/mcp";
import { baseUrl, readCredentials } from "../credentials.js";
import { CommandFailure, UsageError } from "../output.js";
import type { Command, CommandContext } from "./command.js";
import { untilAborted } from "./until-aborted.js";

const usage = `exchange-kit mcp [--allow-writes] [--allow-orders] [--http [--port N] [--host H] [--allow-origin O]...]
                  [--base-url URL] [--api-key K --api-secret S]

  Serves the exchange API to a coding agent over MCP: a tool per operation of the spec, the sandbox's control
  API (sandbox_* tools, when the base URL is a sandbox), and the guides and reference as resources with search_docs.

  --allow-writes     list and allow the record writes (customers, KYC, bank accounts, wallets, EDD, webhook URL)
  --allow-orders     list and allow payin and payout initiate: money moves (each result says what moved)
  --http             Streamable HTTP instead of stdio; a bearer token is required and printed once at start
  --port N           HTTP port (default 0: a free one)      --host H   HTTP interface (default 127.0.0.1)
  --allow-origin O   an Origin allowed to call over HTTP (repeatable); any other Origin is refused
  --base-url URL     default EXCHANGE_BASE_URL, else http://127.0.0.1:4020
  --api-key, --api-secret   default EXCHANGE_API_KEY, EXCHANGE_API_SECRET (they stay in the server)

  Without a flag a gated tool is not listed, and calling it is an error naming the flag.`;

// @exchange-kit/mcp is an optional peer: the MCP SDK it brings would more than double every cli install, and only
// the people who run `exchange-kit mcp` need it.
const MCP_PACKAGE = "@exchange-kit/mcp";
const INSTALL_HINT =
  `exchange-kit mcp needs the package ${MCP_PACKAGE} next to the cli: npm install ${MCP_PACKAGE} ` +
  `(or run it with npx -y -p @exchange-kit/cli -p ${MCP_PACKAGE} exchange-kit mcp)`;

/** The MCP server package, or a failure that says how to install it. */
async function loadMcp(): Promise<typeof McpPackage> {
  try {
    return await import(MCP_PACKAGE);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ERR_MODULE_NOT_FOUND" && String(error).includes(MCP_PACKAGE))
      throw new CommandFailure("MCP_NOT_INSTALLED", INSTALL_HINT);
    throw error;
  }
}

/** --port: 0..65535. */
export function portFlag(value: string | boolean | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError("--port must be 0 to 65535");
  return port;
}

function serverOptions({ values, env }: CommandContext) {
  const credentials = readCredentials(values as Record<string, string | undefined>, env);
  if (!credentials)
    throw new UsageError(
      "no credentials: pass --api-key and --api-secret, or set EXCHANGE_API_KEY and EXCHANGE_API_SECRET",
    );
  return {
    baseUrl: baseUrl(values["base-url"] as string | undefined, env),
    ...credentials,
    allowWrites: values["allow-writes"] === true,
    allowOrders: values["allow-orders"] === true,
  };
}

async function http(context: CommandContext): Promise<number> {
  const { values, out, streams, signal } = context;
  if (values.host !== undefined && typeof values.host !== "string") throw new UsageError("--host needs a value");
  const { serveHttp } = await loadMcp();
  const handle = await serveHttp({
    ...serverOptions(context),
    port: portFlag(values.port),
    host: values.host as string | undefined,
    allowedOrigins: (values["allow-origin"] as unknown as string[] | undefined) ?? [],
  });
  const ready = { url: handle.url, token: handle.token, sandbox: handle.sandbox };
  if (out.json) streams.stdout.write(`${JSON.stringify(ready)}\n`);
  else
    streams.stderr.write(
      `MCP server at ${handle.url} (sandbox tools: ${handle.sandbox ? "yes" : "no"})\n` +
        `  bearer token (shown once): ${handle.token}\n`,
    );
  await untilAborted(signal);
  await handle.close();
  return 0;
}

export const mcp: Command = {
  usage,
  options: {
    "allow-writes": { type: "boolean" },
    "allow-orders": { type: "boolean" },
    http: { type: "boolean" },
    port: { type: "string" },
    host: { type: "string" },
    "allow-origin": { type: "string", multiple: true },
    "base-url": { type: "string" },
    "api-key": { type: "string" },
    "api-secret": { type: "string" },
  },
  async run(context) {
    try {
      if (context.values.http === true) return await http(context);
      const { serveStdio } = await loadMcp();
      await serveStdio({ ...serverOptions(context), stdout: context.streams.stdout }, context.signal);
      return 0;
    } catch (error) {
      if (error instanceof ExchangeConfigurationError) throw new CommandFailure("CONFIGURATION", error.message);
      throw error;
    }
  },
};
