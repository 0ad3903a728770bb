// The MCP server: the generated operation tools behind their gates, search_docs, the sandbox tools when the base
// URL is a sandbox, and the reference as resources. The SDK's low-level Server is used (not McpServer's
// registerTool) because a tool's inputSchema here is the spec's JSON Schema as it is, not one converted from zod.
import { createExchangeClient, type ExchangeClient } from "@exchange-kit/client";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { docResources, searchDocs, searchDocsTool } from "./docs.js";
import { generatedTools } from "./generated/tools.js";
import { callOperation } from "./operation-call.js";
import { DEFAULT_MAX_RESULT_BYTES, errorResult, type ToolResult } from "./results.js";
import { annotationsOf, missingFlag, toolKind } from "./safety.js";
import { callSandboxTool, isSandbox, sandboxTools } from "./sandbox-tools.js";
import { VERSION } from "./version.js";

/** How the server is started. */
export interface ExchangeMcpOptions {
  /** The client the tools call through; without it one is made from `baseUrl`, `apiKey`, `apiSecret`. */
  client?: ExchangeClient | undefined;
  /** Defaults, as the client's: `EXCHANGE_BASE_URL`, `EXCHANGE_API_KEY`, `EXCHANGE_API_SECRET`. */
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  apiSecret?: string | undefined;
  /** Lists and allows the record writes (customers, KYC, bank accounts, wallets, EDD, the webhook URL). */
  allowWrites?: boolean | undefined;
  /** Lists and allows the orders (payin and payout initiate): money moves. */
  allowOrders?: boolean | undefined;
  /** Whether the sandbox tools are listed; by default, when the base URL answers the sandbox's control API. */
  sandbox?: boolean | undefined;
  /** The bound of a result's text, in bytes (default 60000); a longer answer is cut with a note. */
  maxResultBytes?: number | undefined;
}

/** What every session of the server shares: resolved once, at start. */
export interface ServerContext {
  readonly client: ExchangeClient;
  readonly allowWrites: boolean;
  readonly allowOrders: boolean;
  /** Whether the base URL is a sandbox: asked at start, awaited by the first tools/list (not by the handshake). */
  readonly sandbox: Promise<boolean>;
  readonly maxResultBytes: number;
}

/**
 * Resolves the options: makes the client (a missing credential throws the client's ExchangeConfigurationError)
 * and asks the base URL whether it is a sandbox, without waiting for the answer.
 */
export async function resolveContext(options: ExchangeMcpOptions): Promise<ServerContext> {
  const client =
    options.client ??
    createExchangeClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, apiSecret: options.apiSecret });
  return {
    client,
    allowWrites: options.allowWrites === true,
    allowOrders: options.allowOrders === true,
    sandbox: options.sandbox === undefined ? isSandbox(client) : Promise.resolve(options.sandbox),
    maxResultBytes: options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES,
  };
}

const operationTool = (tool: (typeof generatedTools)[number], sandbox: boolean): Tool => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  // On a sandbox, the sandbox's rules: a client that checks arguments itself takes what the sandbox takes.
  inputSchema: (sandbox ? tool.sandboxInputSchema : undefined) ?? tool.inputSchema,
  outputSchema: tool.outputSchema,
  annotations: { title: tool.title, ...annotationsOf(tool) },
});

/**
 * The tools this context lists: the operations its flags allow, search_docs, and the sandbox tools on a sandbox.
 *
 * @example
 * (await listedTools({ ...context, allowWrites: false, allowOrders: false })).some((t) => t.name === "createCustomer"); // false
 */
export async function listedTools(context: ServerContext): Promise<Tool[]> {
  const sandbox = await context.sandbox;
  return [
    ...generatedTools
      .filter((tool) => missingFlag(tool, context) === undefined)
      .map((tool) => operationTool(tool, sandbox)),
    searchDocsTool,
    ...(sandbox ? sandboxTools.map(({ request: _r, shape: _s, ...tool }) => tool) : []),
  ];
}

const KIND_WORDS = { write: "a record write", order: "an order (it moves money)" } as const;

/** Runs one tools/call. */
export async function callTool(
  context: ServerContext,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  if (name === searchDocsTool.name) return searchDocs(args, context.maxResultBytes);
  const sandboxTool = sandboxTools.find((tool) => tool.name === name);
  if (sandboxTool !== undefined) {
    if (!(await context.sandbox))
      return errorResult(`${name} works against a sandbox only, and this base URL is not one`);
    return callSandboxTool(context.client, sandboxTool, args, context.maxResultBytes);
  }
  const tool = generatedTools.find((t) => t.name === name);
  if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${name}`);
  const flag = missingFlag(tool, context);
  if (flag !== undefined) {
    const kind = toolKind(tool) as keyof typeof KIND_WORDS;
    return errorResult(
      `${name} is ${KIND_WORDS[kind]} and this server was started without ${flag}: nothing was sent. ` +
        `Start it with ${flag} to list and allow it.`,
    );
  }
  return callOperation(context.client, tool, args, context.maxResultBytes, await context.sandbox);
}

/** A new SDK Server over `context` (one per connection: stdio has one, stateless HTTP one per request). */
export function buildServer(context: ServerContext): Server {
  const server = new Server(
    { name: "exchange-kit", title: "exchange-kit", version: VERSION },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        "Tools named after the exchange API's operationIds call it through a signed client; sandbox_* drive the " +
        "sandbox; search_docs and the resources are the reference. A tool error that says a call may have " +
        "happened names the read tool that settles it: read before calling again.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await listedTools(context) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) =>
    callTool(context, request.params.name, (request.params.arguments ?? {}) as Record<string, unknown>),
  );
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: docResources.map(({ uri, name, title }) => ({ uri, name, title, mimeType: "text/markdown" })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const doc = docResources.find((d) => d.uri === request.params.uri);
    if (doc === undefined) throw new McpError(ErrorCode.InvalidParams, `unknown resource: ${request.params.uri}`);
    return { contents: [{ uri: doc.uri, mimeType: "text/markdown", text: doc.text }] };
  });
  return server;
}

/**
 * Makes the MCP server, ready to connect to a transport.
 *
 * @example
 * const server = await createExchangeMcpServer({ allowWrites: true });
 * await server.connect(new StdioServerTransport());
 */
export async function createExchangeMcpServer(options: ExchangeMcpOptions = {}): Promise<Server> {
  return buildServer(await resolveContext(options));
}
