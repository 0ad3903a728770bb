// exchange-kit docs: the API reference and the guides, offline, from the installed @exchange-kit/openapi (its
// dist/docs/: the same pages as the published site), served on 127.0.0.1 until Ctrl-C.
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, extname, join, resolve, sep } from "node:path";
import { specFiles } from "@exchange-kit/openapi";
import { CommandFailure } from "../output.js";
import type { Command } from "./command.js";
import { hostFlag, portFlag } from "./flags.js";
import { untilAborted } from "./until-aborted.js";

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
};

/** Where the installed @exchange-kit/openapi keeps its pages. */
export function docsRoot(): string {
  return join(dirname(specFiles.json), "docs");
}

/**
 * The file a request path names inside `root`, or undefined when it names none there: a directory means its
 * index.html, and a path that leaves `root` (`..`, an encoded `%2e%2e`, a backslash) names nothing.
 *
 * @example
 * docsFile("/srv/docs", "/guides/webhooks.html"); // "/srv/docs/guides/webhooks.html"
 * docsFile("/srv/docs", "/../package.json"); // undefined
 */
export function docsFile(root: string, urlPath: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(urlPath.split("?")[0] ?? "/");
  } catch {
    return undefined;
  }
  if (path.includes("\0") || path.includes("\\")) return undefined;
  let file = resolve(root, `.${path}`);
  if (file !== root && !file.startsWith(root + sep)) return undefined;
  if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
  return existsSync(file) && statSync(file).isFile() && TYPES[extname(file)] ? file : undefined;
}

function answer(root: string, req: IncomingMessage, res: ServerResponse): void {
  const file = req.method === "GET" || req.method === "HEAD" ? docsFile(root, req.url ?? "/") : undefined;
  if (!file) {
    res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found\n");
    return;
  }
  res.writeHead(200, {
    "Content-Type": TYPES[extname(file)]!,
    "Content-Length": statSync(file).size,
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
  });
  if (req.method === "HEAD") res.end();
  else createReadStream(file).pipe(res);
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolvePort((server.address() as AddressInfo).port));
  });
}

export const docs: Command = {
  usage: `exchange-kit docs [--port 4040] [--host 127.0.0.1] [--json]
  serves the API reference (every operation, field and error code), the local sandbox's reference (/sandbox/) and
  the guides, getting started first, from the installed @exchange-kit/openapi: the pages of the published site,
  offline, until Ctrl-C
  --port N      port to listen on (default 4040; 0 picks a free one)`,
  options: {
    port: { type: "string" },
    host: { type: "string" },
  },
  async run({ values, out, signal }) {
    const port = portFlag(values.port, 4040);
    const host = hostFlag(values.host);
    const root = docsRoot();
    if (!existsSync(join(root, "index.html")))
      throw new CommandFailure("DOCS_MISSING", `no docs in ${root}: reinstall @exchange-kit/openapi`);
    const server = createServer((req, res) => answer(root, req, res));
    const url = `http://${host.includes(":") ? `[${host}]` : host}:${await listen(server, port, host)}/`;
    out.result(
      {
        ready: true,
        url,
        reference: url,
        sandboxReference: `${url}sandbox/`,
        gettingStarted: `${url}guides/getting-started.html`,
      },
      `${out.green("docs at")} ${out.bold(url)} (the reference; the sandbox's: ${url}sandbox/); start with ${url}guides/getting-started.html (Ctrl-C to stop)`,
    );
    await untilAborted(signal);
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
    return 0;
  },
};
