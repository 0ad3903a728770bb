// Real HTTP servers on 127.0.0.1 ephemeral ports for the transport tests: each records what reached it.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as it reached a server: method, path with query, headers, body. */
export interface Arrived {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly arrived: Arrived[];
  close(): Promise<void>;
}

/** The envelope of a success, as text. */
export const okEnvelope = (data: unknown): string => JSON.stringify({ status: true, message: "Success", data });

/**
 * Starts a server that records each request (its body read whole) and hands it to `answer`. Closing it ends every
 * open connection, so a test never waits on a client that still reads.
 */
export async function startServer(
  answer: (request: Arrived, response: ServerResponse, raw: IncomingMessage) => void,
): Promise<TestServer> {
  const arrived: Arrived[] = [];
  const server = createServer(async (raw, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of raw) chunks.push(chunk as Buffer);
    const request = {
      method: raw.method!,
      url: raw.url!,
      headers: raw.headers,
      body: Buffer.concat(chunks).toString(),
    };
    arrived.push(request);
    answer(request, response, raw);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrived,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
