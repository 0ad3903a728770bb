// Slow and silent clients against a real server on 127.0.0.1, with the timeouts shortened through the options:
// no client keeps a socket longer than the timeouts allow.
import type { Server } from "node:http";
import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createApiServer } from "../../src/http/server.js";
import { checkingIntervalMs, checkTimeouts, DEFAULT_TIMEOUTS, type ServerTimeouts } from "../../src/http/timeouts.js";
import { toLogger } from "../../src/logger.js";
import { createSandbox } from "../../src/index.js";
import { startSandbox } from "../helpers.js";

const SHORT = { keepAliveTimeoutMs: 100, headersTimeoutMs: 300, requestTimeoutMs: 600 };

const sockets: Socket[] = [];
afterEach(() => {
  while (sockets.length > 0) sockets.pop()!.destroy();
});

interface Watched {
  socket: Socket;
  /** Everything the server sent. */
  received: () => string;
  /** Resolves with the ms from the connection to the socket's close (fails the test after 5 s). */
  closed: Promise<number>;
  connectedAt: Promise<number>;
}

function open(port: number, options: { allowHalfOpen?: boolean } = {}): Watched {
  const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: options.allowHalfOpen ?? false });
  sockets.push(socket);
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  socket.on("error", () => {});
  const connectedAt = new Promise<number>((resolve) => socket.once("connect", () => resolve(Date.now())));
  const closed = connectedAt.then(
    (start) =>
      new Promise<number>((resolve, reject) => {
        const limit = setTimeout(() => reject(new Error("the server kept the socket open for 5 s")), 5000);
        socket.once("close", () => {
          clearTimeout(limit);
          resolve(Date.now() - start);
        });
      }),
  );
  return { socket, received: () => Buffer.concat(chunks).toString("utf8"), closed, connectedAt };
}

/** Writes `text` one byte every `everyMs` until the socket closes. */
function trickle(socket: Socket, text: string, everyMs: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || socket.writableEnded || i >= text.length) {
      clearInterval(timer);
      return;
    }
    socket.write(text[i++]!);
  }, everyMs);
  socket.once("close", () => clearInterval(timer));
}

describe("how long a client may hold a connection", () => {
  it("answers NET_TIMEOUT and closes a connection that sends nothing, after the headers timeout", async () => {
    const sandbox = await startSandbox(SHORT);
    const silent = open(sandbox.port);
    const after = await silent.closed;
    expect(after).toBeGreaterThanOrEqual(SHORT.headersTimeoutMs / 2);
    expect(JSON.parse(silent.received().split("\r\n\r\n")[1]!)).toMatchObject({ err_code: "NET_TIMEOUT" });
  });

  it("answers NET_TIMEOUT and closes a connection that sends its headers a byte at a time", async () => {
    const sandbox = await startSandbox(SHORT);
    const slow = open(sandbox.port);
    await slow.connectedAt;
    // Each byte resets the inactivity timer; the headers timeout counts from the first byte.
    trickle(
      slow.socket,
      "GET /cms/api/v1/customer/list HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ".padEnd(400, "x"),
      20,
    );
    const after = await slow.closed;
    expect(after).toBeGreaterThanOrEqual(SHORT.headersTimeoutMs);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(slow.received().split("\r\n\r\n")[1]!)).toMatchObject({
      status: false,
      err_code: "NET_TIMEOUT",
      message: "Request timed out",
    });
  });

  it("answers NET_TIMEOUT and closes a connection whose body arrives too slowly", async () => {
    const sandbox = await startSandbox(SHORT);
    const slow = open(sandbox.port);
    await slow.connectedAt;
    slow.socket.write(
      "POST /cms/api/v1/customer/create HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
    );
    trickle(slow.socket, "x".repeat(1000), 20);
    const after = await slow.closed;
    expect(after).toBeGreaterThanOrEqual(SHORT.requestTimeoutMs);
    expect(JSON.parse(slow.received().split("\r\n\r\n")[1]!)).toMatchObject({ err_code: "NET_TIMEOUT" });
  });

  it("closes an idle keep-alive connection after the keep-alive timeout that follows its response", async () => {
    const sandbox = await startSandbox(SHORT);
    const client = open(sandbox.port);
    await client.connectedAt;
    client.socket.write("GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await new Promise<void>((resolve) => client.socket.once("data", () => resolve()));
    const answeredAt = Date.now();
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    // Node adds its keep-alive buffer (1 s from Node 24.6) to the advertised timeout, so the client closes first.
    expect(Date.now() - answeredAt).toBeGreaterThanOrEqual(SHORT.keepAliveTimeoutMs);
  });

  it("keeps a keep-alive connection that sends its next request within the timeout", async () => {
    const sandbox = await startSandbox({ ...SHORT, keepAliveTimeoutMs: 2000 });
    const client = open(sandbox.port);
    await client.connectedAt;
    for (let i = 0; i < 2; i++) {
      client.socket.write("GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      await new Promise<void>((resolve) => client.socket.once("data", () => resolve()));
    }
    expect(client.received().match(/HTTP\/1\.1 404/g)).toHaveLength(2);
    expect(client.socket.destroyed).toBe(false);
  });
});

describe("a client that never closes its side", () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  async function listening(timeouts: ServerTimeouts): Promise<Server> {
    server = createApiServer({
      routes: [],
      organizationsByKey: new Map(),
      domain: undefined,
      bodyLimitBytes: 1024,
      logger: toLogger(undefined),
      timeouts,
    });
    const started = server;
    await new Promise<void>((resolve) => started.listen(0, "127.0.0.1", resolve));
    return started;
  }

  const connections = (s: Server) =>
    new Promise<number>((resolve, reject) => s.getConnections((error, n) => (error ? reject(error) : resolve(n))));

  it("loses its timed-out socket on the server, although it keeps its own side open", async () => {
    const s = await listening({ keepAliveMs: 100, headersMs: 200, requestMs: 400 });
    const port = (s.address() as AddressInfo).port;
    const halfOpen = open(port, { allowHalfOpen: true });
    await halfOpen.connectedAt;
    trickle(halfOpen.socket, "GET / HTTP/1.1\r\nX-Padding: ".padEnd(400, "x"), 20);
    await new Promise<void>((resolve) => halfOpen.socket.once("end", () => resolve()));
    const deadline = Date.now() + 5000;
    while ((await connections(s)) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(await connections(s)).toBe(0);
    expect(halfOpen.received()).toContain('"err_code":"NET_TIMEOUT"');
  });
});

describe("the timeout options", () => {
  it("default to Node's own server defaults", () => {
    expect(DEFAULT_TIMEOUTS).toEqual({ keepAliveMs: 5_000, headersMs: 60_000, requestMs: 300_000 });
    expect(checkingIntervalMs(DEFAULT_TIMEOUTS)).toBe(30_000);
  });

  it.each([
    [{ keepAliveMs: 0, headersMs: 1000, requestMs: 2000 }, "keepAliveMs"],
    [{ keepAliveMs: 100, headersMs: 1.5, requestMs: 2000 }, "headersMs"],
    [{ keepAliveMs: 100, headersMs: 1000, requestMs: 2 ** 31 }, "requestMs"],
    [{ keepAliveMs: 100, headersMs: 3000, requestMs: 2000 }, "headers timeout cannot be longer"],
  ])("refuse %j (%s)", (timeouts, named) => {
    expect(() => checkTimeouts(timeouts)).toThrow(RangeError);
    expect(() => checkTimeouts(timeouts)).toThrow(named);
  });

  it.each([
    [{ keepAliveMs: 100, headersMs: 300, requestMs: 600 }, 150],
    [{ keepAliveMs: 100, headersMs: 1, requestMs: 1 }, 1],
    [{ keepAliveMs: 100, headersMs: 120_000, requestMs: 600_000 }, 30_000],
  ])("check open requests of %j every %i ms", (timeouts, interval) => {
    expect(checkingIntervalMs(timeouts)).toBe(interval);
  });

  it("make createSandbox throw before it opens anything when out of range", async () => {
    await expect(createSandbox({ headersTimeoutMs: 0 })).rejects.toThrow(RangeError);
    await expect(createSandbox({ headersTimeoutMs: 5000, requestTimeoutMs: 1000 })).rejects.toThrow(RangeError);
  });
});
