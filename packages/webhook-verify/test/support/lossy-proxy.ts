import { once } from "node:events";
import { createServer, type Socket, connect } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A TCP proxy in front of Redis that can lose one reply: once armed, the
 * next command matching `pattern` reaches Redis and runs there, and the
 * connection is cut as its reply comes back, so the client never learns
 * that it ran. Every other byte passes through unchanged.
 */
export interface LossyProxy {
  url: string;
  /** Loses the reply to the next command whose bytes match `pattern`; resolves once it was lost. */
  loseNextReply(pattern: RegExp): Promise<void>;
  close(): Promise<void>;
}

export async function startLossyProxy(target: { port: number }): Promise<LossyProxy> {
  let armed: { pattern: RegExp; lost: () => void } | undefined;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target.port, "127.0.0.1");
    sockets.add(client).add(upstream);
    let cutOnReply: (() => void) | undefined;
    client.on("data", (chunk) => {
      if (armed?.pattern.test(chunk.toString("latin1"))) {
        cutOnReply = armed.lost;
        armed = undefined;
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (cutOnReply === undefined) return void client.write(chunk);
      const lost = cutOnReply;
      cutOnReply = undefined;
      client.destroy();
      upstream.destroy();
      lost();
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    loseNextReply: (pattern) => new Promise<void>((lost) => (armed = { pattern, lost })),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
