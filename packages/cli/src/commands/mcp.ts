// exchange-kit mcp: the MCP server of @exchange-kit/mcp, on stdio (what editors start) or Streamable HTTP. In
// stdio mode stdout is the protocol's channel, so every line for a person goes to stderr.
import { ExchangeConfigurationError } from "@exchange-kit/client";
import { serveHttp, serveStdio } from "@exchange-kit/mcp";
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
    throw new UsageError("no credentials: pass --api-key and --api-secret, or set EXCHANGE_API_KEY and EXCHANGE_API_SECRET");
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
      await serveStdio({ ...serverOptions(context), stdout: context.streams.stdout }, context.signal);
      return 0;
    } catch (error) {
      if (error instanceof ExchangeConfigurationError) throw new CommandFailure("CONFIGURATION", error.message);
      throw error;
    }
  },
};
