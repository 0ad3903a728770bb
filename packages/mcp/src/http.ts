// Streamable HTTP: 127.0.0.1 by default, a bearer token on every request, the Origin header checked (a browser
// page on another site cannot drive the server), and the Host checked (DNS rebinding). Stateless: each POST gets
// its own SDK Server over the context resolved at start, so no session state outlives a request.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseJson } from "@exchange-kit/signing";
import type { StreamableHTTPServerTransport as Transport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { buildServer, type ExchangeMcpOptions, resolveContext, type ServerContext } from "./server.js";

/** Streamable HTTP options. */
export interface HttpOptions extends ExchangeMcpOptions {
  /** Interface to bind (default 127.0.0.1). */
  host?: string | undefined;
  /** Port (default 0: a free one). */
  port?: number | undefined;
  /** The bearer token clients must send; a random one when left out (read it from the handle). */
  token?: string | undefined;
  /** Origins allowed to call (e.g. `http://localhost:5173`); a request with any other Origin is refused. */
  allowedOrigins?: readonly string[] | undefined;
}

/** A running HTTP server. */
export interface HttpHandle {
  /** The MCP endpoint, e.g. `http://127.0.0.1:4930/mcp`. */
  readonly url: string;
  /** The bearer token: `Authorization: Bearer <token>`. */
  readonly token: string;
  /** The tools it lists were decided at start: whether the base URL is a sandbox among them. */
  readonly sandbox: boolean;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Whether `header` is `Bearer <token>`, compared in constant time. */
export function hasToken(header: string | undefined, token: string): boolean {
  const sent = Buffer.from(header?.startsWith("Bearer ") ? header.slice(7) : "", "utf8");
  const expected = Buffer.from(token, "utf8");
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

/**
 * Why a request is refused before it reaches MCP, as [status, message], or undefined to let it through.
 *
 * @example
 * refusal({ url: "/mcp", headers: { origin: "https://evil.example" } }, "t", []); // [403, "origin ... not allowed"]
 */
export function refusal(
  request: {
    url?: string | undefined;
    method?: string | undefined;
    headers: Record<string, string | string[] | undefined>;
  },
  token: string,
  allowedOrigins: readonly string[],
): [number, string] | undefined {
  if (new URL(request.url ?? "/", "http://x").pathname !== "/mcp") return [404, "not found: the MCP endpoint is /mcp"];
  const origin = request.headers.origin;
  if (typeof origin === "string" && !allowedOrigins.includes(origin))
    return [403, `origin ${origin} is not allowed (exchange-kit mcp --allow-origin adds one)`];
  const authorization = request.headers.authorization;
  if (!hasToken(typeof authorization === "string" ? authorization : undefined, token))
    return [401, "a bearer token is required: Authorization: Bearer <the token the server printed at start>"];
  if (request.method !== "POST") return [405, "this server is stateless: POST JSON-RPC messages to /mcp"];
  return undefined;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) reject(new Error(`the request body is over ${MAX_BODY_BYTES} bytes`));
      else chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function refuse(response: ServerResponse, status: number, message: string): void {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (status === 401) headers["WWW-Authenticate"] = "Bearer";
  response
    .writeHead(status, headers)
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

type TransportClass = typeof Transport;

async function handle(
  Streamable: TransportClass,
  context: ServerContext,
  hosts: string[],
  request: IncomingMessage,
  response: ServerResponse,
) {
  let body: unknown;
  try {
    body = parseJson(await readBody(request));
  } catch (error) {
    return refuse(response, 400, `the body is not JSON: ${(error as Error).message}`);
  }
  const server = buildServer(context);
  const transport = new Streamable({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    allowedHosts: hosts,
    enableDnsRebindingProtection: true,
  });
  response.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request, response, body);
}

/**
 * Starts the server on Streamable HTTP and resolves once it listens.
 *
 * @example
 * const http = await serveHttp({ port: 4930 });
 * console.error(`MCP at ${http.url}, token ${http.token}`);
 */
export async function serveHttp(options: HttpOptions = {}): Promise<HttpHandle> {
  // The SDK's HTTP transport (with its web server stack) loads here, so a stdio server never pays for it.
  const { StreamableHTTPServerTransport } = await import("@modelcontextprotocol/sdk/server/streamableHttp.js");
  const context = await resolveContext(options);
  const token = options.token ?? randomBytes(24).toString("base64url");
  const origins = options.allowedOrigins ?? [];
  const hosts: string[] = [];
  const server = createServer((request, response) => {
    const refused = refusal(request, token, origins);
    if (refused) return refuse(response, ...refused);
    handle(StreamableHTTPServerTransport, context, hosts, request, response).catch((error: Error) => {
      if (!response.headersSent) refuse(response, 500, `internal error: ${error.message}`);
    });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  hosts.push(`${host}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`);
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/mcp`,
    token,
    sandbox: await context.sandbox,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
