// stdio, the transport editors start: JSON-RPC on stdin and stdout, so nothing else may write to stdout.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Readable, Writable } from "node:stream";
import { createExchangeMcpServer, type ExchangeMcpOptions } from "./server.js";

/** stdio options: the streams default to the process's. */
export interface StdioOptions extends ExchangeMcpOptions {
  stdin?: Readable | undefined;
  stdout?: Writable | undefined;
}

/**
 * Serves MCP on stdin/stdout; resolves when the client closes stdin (or `signal` aborts).
 *
 * @example
 * await serveStdio({ allowWrites: process.argv.includes("--allow-writes") });
 */
export async function serveStdio(options: StdioOptions = {}, signal?: AbortSignal): Promise<void> {
  const server = await createExchangeMcpServer(options);
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    stdin.once("end", () => resolve());
    signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
