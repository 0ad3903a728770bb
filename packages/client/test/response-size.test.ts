// Answers larger than maxResponseBytes, from real servers: one that streams a body without end, one that declares
// a huge Content-Length. The client stops reading at the limit (the server sees its connection closed), never asks
// again, and for an operation that is not safe to repeat reports the outcome as unknown.
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  createExchangeClient,
  ExchangeAmbiguousResultError,
  ExchangeResponseTooLargeError,
  type ExchangeClientOptions,
} from "../src/index.js";
import { declaredLength, readLimitedText } from "../src/read-limited-body.js";
import { API_KEY, API_SECRET, CUSTOMER_ID, failure } from "./support/fake-fetch.js";
import { okEnvelope, startServer, type TestServer } from "./support/http-server.js";

const running: TestServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

const MiB = 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x61);

/** What an endless answer cost its server: bytes handed to the socket, and when the client closed it. */
interface Streamed {
  written: number;
  closed: Promise<void>;
}

/**
 * Answers with a 200 whose body never ends: chunks of 64 KiB as fast as the socket takes them, until the client
 * closes the connection (or, should the client never stop, 1 GiB, so that a failing test ends).
 */
function streamEndlessly(response: ServerResponse, streamed: Streamed[]): void {
  let resolveClosed: () => void = () => {};
  const entry: Streamed = { written: 0, closed: new Promise((resolve) => (resolveClosed = resolve)) };
  streamed.push(entry);
  response.on("close", resolveClosed);
  response.writeHead(200, { "content-type": "application/json" });
  response.write('{"status":true,"data":"');
  const pump = (): void => {
    if (response.destroyed) return;
    if (entry.written > 1024 * MiB) return void response.end('"}');
    entry.written += CHUNK.length;
    if (response.write(CHUNK)) setImmediate(pump);
    else response.once("drain", pump);
  };
  pump();
}

async function server(answer: Parameters<typeof startServer>[0]) {
  const started = await startServer(answer);
  running.push(started);
  return started;
}

const clientFor = (url: string, options: ExchangeClientOptions = {}) =>
  createExchangeClient({
    baseUrl: url,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    retryBaseMs: 1,
    timeoutMs: 20_000,
    ...options,
  });

describe("an answer without end", () => {
  it("is read up to maxResponseBytes, then the connection is closed and the call fails", async () => {
    const streamed: Streamed[] = [];
    const endless = await server((_, response) => streamEndlessly(response, streamed));
    const error = await failure(clientFor(endless.url, { maxResponseBytes: MiB }).customers.get(CUSTOMER_ID));
    expect(error).toBeInstanceOf(ExchangeResponseTooLargeError);
    expect(error.status).toBe(200);
    expect(error.maxResponseBytes).toBe(MiB);
    expect(error.declaredBytes).toBeUndefined();
    expect(error.message).toMatch(/larger than maxResponseBytes \(1048576 bytes\); reading stopped there/);
    await streamed[0]!.closed;
    // Past the limit the server could only fill the loopback socket buffers (3.75 MiB written in all here, for a
    // 1 MiB limit); without the limit it would write until the attempt timed out.
    expect(streamed[0]!.written).toBeLessThan(MiB + 16 * MiB);
  });

  it("is not asked for again, even with retries left", async () => {
    const streamed: Streamed[] = [];
    const endless = await server((_, response) => streamEndlessly(response, streamed));
    const error = await failure(
      clientFor(endless.url, { maxResponseBytes: MiB, maxRetries: 3 }).customers.get(CUSTOMER_ID),
    );
    expect(error).toBeInstanceOf(ExchangeResponseTooLargeError);
    expect(error.attempts).toBe(1);
    expect(endless.arrived).toHaveLength(1);
  });

  it("is stopped at the default limit of 4 MiB", async () => {
    const streamed: Streamed[] = [];
    const endless = await server((_, response) => streamEndlessly(response, streamed));
    const error = await failure(clientFor(endless.url).customers.get(CUSTOMER_ID));
    expect(error.maxResponseBytes).toBe(4 * MiB);
    await streamed[0]!.closed;
  });

  it("fails client.raw too: there is no answer to hand back", async () => {
    const streamed: Streamed[] = [];
    const endless = await server((_, response) => streamEndlessly(response, streamed));
    const raw = clientFor(endless.url, { maxResponseBytes: MiB }).raw;
    const error = await failure(
      raw.GET("/cms/api/v1/customer/{customer_id}", { params: { path: { customer_id: CUSTOMER_ID } } }),
    );
    expect(error).toBeInstanceOf(ExchangeResponseTooLargeError);
    await streamed[0]!.closed;
  });
});

describe("an answer whose Content-Length is over the limit", () => {
  it("is refused before its body is read", async () => {
    let sent = 0;
    let closed: () => void = () => {};
    const gone = new Promise<void>((resolve) => (closed = resolve));
    const huge = await server((_, response) => {
      response.on("close", closed);
      response.writeHead(200, { "content-type": "application/json", "content-length": String(100_000_000) });
      // One chunk, then nothing: a client that waited for the whole body would wait until its timeout.
      response.write(CHUNK);
      sent += CHUNK.length;
    });
    const started = Date.now();
    const error = await failure(clientFor(huge.url, { timeoutMs: 60_000 }).customers.get(CUSTOMER_ID));
    expect(error).toBeInstanceOf(ExchangeResponseTooLargeError);
    expect(error.declaredBytes).toBe(100_000_000);
    expect(error.message).toMatch(/Content-Length is 100000000, so none of it was read/);
    expect(Date.now() - started).toBeLessThan(30_000);
    await gone;
    expect(sent).toBe(CHUNK.length);
  });

  it("is read when it is exactly maxResponseBytes", async () => {
    const body = okEnvelope({ id: CUSTOMER_ID });
    const padded = body.padEnd(2048, " ");
    const exact = await server((_, response) => response.writeHead(200, { "content-length": "2048" }).end(padded));
    await expect(clientFor(exact.url, { maxResponseBytes: 2048 }).customers.get(CUSTOMER_ID)).resolves.toEqual({
      id: CUSTOMER_ID,
    });
    const over = await failure(clientFor(exact.url, { maxResponseBytes: 2047 }).customers.get(CUSTOMER_ID));
    expect(over.declaredBytes).toBe(2048);
  });
});

describe("an oversized answer to an operation that is not safe to repeat", () => {
  it("is ExchangeAmbiguousResultError for an unsafe call, with the size error as its cause, and sent once", async () => {
    const streamed: Streamed[] = [];
    const endless = await server((_, response) => streamEndlessly(response, streamed));
    const client = clientFor(endless.url, { maxResponseBytes: MiB, maxRetries: 3 });
    const error = await failure(client.payins.saveEdd({ customer_id: CUSTOMER_ID } as never));
    expect(error).toBeInstanceOf(ExchangeAmbiguousResultError);
    expect(error.cause).toBeInstanceOf(ExchangeResponseTooLargeError);
    expect(error.check).toMatch(/payins\.listEdd/);
    expect(endless.arrived).toHaveLength(1);
  });

  describe("initiate (guarded)", () => {
    const reference = "payin-ref-oversized";
    /** A service whose initiate creates the order (when `creates`) and then answers without end. */
    async function service(creates: boolean) {
      const streamed: Streamed[] = [];
      const orders: Record<string, unknown>[] = [];
      const started = await server((request, response) => {
        if (request.url.startsWith("/pis/api/v1/payin/initiate")) {
          if (creates) orders.push({ id: "order-1", client_reference_id: reference, status: "PROCESSING" });
          return streamEndlessly(response, streamed);
        }
        if (request.url.startsWith("/pis/api/v1/payin/history")) {
          const page = { count: orders.length, next: null, previous: null, results: orders };
          return response.writeHead(200, { "content-type": "application/json" }).end(okEnvelope(page));
        }
        response.writeHead(404).end();
      });
      const client = clientFor(started.url, { maxResponseBytes: MiB, maxRetries: 3 });
      const initiates = () => started.arrived.filter((r) => r.url.includes("/initiate")).length;
      return { client, initiates };
    }
    const body = { quotation_id: "e1d2c3b4-a5f6-4e7d-8c9b-0a1f2e3d4c5b", client_reference_id: reference };

    it("resolves to the order the history shows, without sending initiate again", async () => {
      const { client, initiates } = await service(true);
      await expect(client.payins.initiate(body)).resolves.toMatchObject({
        id: "order-1",
        client_reference_id: reference,
      });
      expect(initiates()).toBe(1);
    });

    it("is ExchangeAmbiguousResultError naming the history when the order is not there, and not sent again", async () => {
      const { client, initiates } = await service(false);
      const error = await failure(client.payins.initiate(body));
      expect(error).toBeInstanceOf(ExchangeAmbiguousResultError);
      expect(error.cause).toBeInstanceOf(ExchangeResponseTooLargeError);
      expect(error.check).toMatch(/payins\.history.*client_reference_id/);
      expect(initiates()).toBe(1);
    });
  });
});

describe("readLimitedText", () => {
  it.each([
    ["", 10, ""],
    ["héllo", 6, "héllo"],
    ["\uFEFFbom", 10, "bom"],
  ])("reads %j within %i bytes as Response.text() would", async (text, max, expected) => {
    expect(await readLimitedText(new Response(text), max)).toBe(expected);
  });

  it("refuses a body one byte over the limit", async () => {
    await expect(readLimitedText(new Response("héllo"), 5)).rejects.toMatchObject({
      name: "BodyTooLarge",
      declaredBytes: undefined,
    });
  });

  it.each([
    [null, undefined],
    ["0", 0],
    [" 42 ", 42],
    ["-1", undefined],
    ["1e3", undefined],
    ["12, 12", undefined],
    ["9999999999999999", undefined],
  ])("reads Content-Length %j as %j", (value, expected) => {
    expect(declaredLength(value)).toBe(expected);
  });
});
