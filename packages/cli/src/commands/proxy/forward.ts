// The proxy's server: every request goes to the target and every answer comes back byte for byte and streamed
// (method, path and query, headers but the hop-by-hop ones, body untouched: a signed body arrives as it was
// signed), while a copy of each body is kept for the contract check once its message is complete.
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import { request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";
import { checkedBody, collector } from "./body-bytes.js";
import { forwardedHeaders } from "./headers.js";

/** One message as the check sees it: headers (names in lower case) and the decoded body, if it could be kept. */
export interface SeenMessage {
  headers: IncomingHttpHeaders;
  /** Undefined when the body is not checked: `unchecked` says why. */
  body: Buffer | undefined;
  /** Why the body is not checked (over the limit as sent or inflated, an unknown or broken Content-Encoding). */
  unchecked?: string;
}

export interface SeenRequest extends SeenMessage {
  method: string;
  /** The path and query as the client sent them. */
  url: string;
}

export interface ProxyHandlers {
  /** A request, once its body is complete (it is on its way to the target already). */
  onRequest(request: SeenRequest): void;
  /** An answer, once its body is complete (the client has it already). */
  onResponse(request: Pick<SeenRequest, "method" | "url">, response: SeenMessage & { status: number }): void;
  /** The target could not be reached or broke off; the client got a 502 (or a cut answer). */
  onFailure(request: Pick<SeenRequest, "method" | "url">, reason: string): void;
}

export interface ProxyServer {
  url: string;
  /** Stops accepting requests, lets the ones under way finish (a few seconds at most) and closes. */
  close(): Promise<void>;
}

/** Collects a message's bytes as they stream past; `done` gives them decoded once the message ended. */
function tap(message: IncomingMessage, done: (seen: SeenMessage) => void): void {
  const bytes = collector();
  message.on("data", (chunk: Buffer) => bytes.add(chunk));
  message.on("end", () => {
    void checkedBody(bytes.bytes(), message.headers["content-encoding"]).then((decoded) =>
      done({ headers: message.headers, body: undefined, ...decoded }),
    );
  });
}

/** The target's path prefix (if any) followed by the request's path and query, untouched. */
export function upstreamPath(target: URL, url: string): string {
  const prefix = target.pathname.replace(/\/+$/, "");
  return `${prefix}${url.startsWith("/") ? url : `/${url}`}`;
}

function failed(res: ServerResponse, target: URL, reason: string): void {
  if (res.headersSent) {
    res.destroy(); // the answer was under way: cut it, so the client sees it incomplete rather than ended
    return;
  }
  res.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
  res.end(`exchange-kit proxy: ${target.origin} did not answer (${reason})\n`);
}

function forward(target: URL, handlers: ProxyHandlers, req: IncomingMessage, res: ServerResponse): void {
  const seen = { method: req.method ?? "GET", url: req.url ?? "/" };
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  const upstream = send({
    protocol: target.protocol,
    hostname: target.hostname,
    port: target.port,
    method: seen.method,
    path: upstreamPath(target, seen.url),
    headers: forwardedHeaders(req.rawHeaders, target.host),
    setHost: false,
  });
  upstream.on("response", (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardedHeaders(answer.rawHeaders));
    tap(answer, (message) => handlers.onResponse(seen, { ...message, status: answer.statusCode ?? 0 }));
    answer.pipe(res);
    answer.on("aborted", () => res.destroy());
  });
  let clientGone = false;
  upstream.on("error", (error: NodeJS.ErrnoException) => {
    if (clientGone) return; // the proxy ended this request itself
    handlers.onFailure(seen, error.code ?? error.message);
    failed(res, target, error.code ?? error.message);
  });
  tap(req, (message) => handlers.onRequest({ ...seen, ...message }));
  req.pipe(upstream);
  res.on("close", () => {
    if (res.writableFinished) return;
    clientGone = true; // the client went away: so does the request to the target
    upstream.destroy();
  });
}

/**
 * Starts the proxy on `host:port` (port 0 picks a free one) in front of `target`.
 *
 * @example
 * const proxy = await startProxy(new URL("https://api.example"), { port: 4030, host: "127.0.0.1" }, handlers);
 * // ... point the client at proxy.url ...
 * await proxy.close();
 */
export async function startProxy(
  target: URL,
  listen: { port: number; host: string },
  handlers: ProxyHandlers,
): Promise<ProxyServer> {
  const server = createServer((req, res) => forward(target, handlers, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = listen.host.includes(":") ? `[${listen.host}]` : listen.host;
  return {
    url: `http://${shownHost}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Exchanges under way get a moment to finish; a target that never answers does not hold the exit.
        setTimeout(() => server.closeAllConnections(), 3000).unref();
      }),
  };
}
