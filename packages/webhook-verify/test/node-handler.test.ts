import { canonicalize } from "@exchange-kit/signing";
import express from "express";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createNodeWebhookHandler } from "../src/node.js";
import { apiKey, now, payoutInReview, signText } from "./support/fixtures.js";
import {
  closed,
  consoleOutput,
  delivery,
  listening,
  Recorder,
  settings,
  unsignedDelivery,
} from "./support/receiver.js";
import { urlOf } from "./support/servers.js";

let server: Server | undefined;

async function start(app: Parameters<typeof createServer>[1]): Promise<string> {
  server = await listening(createServer(app).listen(0, "127.0.0.1"));
  return `${urlOf(server)}/webhooks/exchange`;
}

afterEach(async () => {
  if (server) await closed(server);
  server = undefined;
});

async function answer(response: Response) {
  return { status: response.status, body: await response.json() };
}

describe("createNodeWebhookHandler on node:http", () => {
  it("reads the raw body, answers 200 and hands the event to onEvent", async () => {
    const recorder = new Recorder();
    const url = await start(createNodeWebhookHandler(settings, recorder.onEvent));
    expect(await answer(await fetch(url, await delivery()))).toEqual({ status: 200, body: { received: true } });
    await recorder.until(() => recorder.events.length === 1);
    expect(recorder.events[0]).toEqual({ ...payoutInReview, known: true });
  });

  it("answers 401 with only the code to tampered and stale deliveries", async () => {
    const recorder = new Recorder();
    const url = await start(createNodeWebhookHandler({ ...settings, onError: recorder.onError }, recorder.onEvent));
    const init = await delivery();
    const tampered = { ...init, body: String(init.body).replace("IN_REVIEW", "SUCCESS") };
    expect(await answer(await fetch(url, tampered))).toEqual({ status: 401, body: { error: "INVALID_SIGNATURE" } });
    const stale = await delivery(payoutInReview, now - 301);
    expect(await answer(await fetch(url, stale))).toEqual({
      status: 401,
      body: { error: "TIMESTAMP_OUT_OF_TOLERANCE" },
    });
    expect(recorder.events).toEqual([]);
    expect(recorder.errors).toHaveLength(2);
  });

  it("answers 200 to a duplicate without running onEvent again", async () => {
    const recorder = new Recorder();
    const url = await start(createNodeWebhookHandler(settings, recorder.onEvent));
    const init = await delivery();
    await fetch(url, init);
    await recorder.until(() => recorder.events.length === 1);
    expect(await answer(await fetch(url, init))).toEqual({ status: 200, body: { received: true, duplicate: true } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(recorder.events).toHaveLength(1);
  });

  it("answers 401 INVALID_TIMESTAMP to an unsigned request whose timestamp has leading zeros, logging no error", async () => {
    const url = await start(createNodeWebhookHandler(settings, () => {}));
    let response: { status: number; body: unknown } | undefined;
    const logged = await consoleOutput(async () => {
      response = await answer(await fetch(url, unsignedDelivery(`000${now}`)));
    });
    expect(response).toEqual({ status: 401, body: { error: "INVALID_TIMESTAMP" } });
    expect(logged.error).toEqual([]);
    expect(logged.warn).toEqual([[expect.stringMatching(/^webhook rejected: INVALID_TIMESTAMP: /)]]);
  });

  it("answers 405 with Allow: POST to other methods", async () => {
    const url = await start(createNodeWebhookHandler(settings, () => {}));
    const response = await fetch(url, { method: "PUT", body: "{}" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });

  it("answers 413 to a body over the limit, whether its length is declared or streamed", async () => {
    const url = await start(createNodeWebhookHandler({ ...settings, maxBodyBytes: 1024 }, () => {}));
    const body = JSON.stringify({ ...payoutInReview, metadata: { pad: "x".repeat(4096) } });
    const headers = await signText(body);
    expect(await answer(await fetch(url, { method: "POST", body, headers }))).toEqual({
      status: 413,
      body: { error: "PAYLOAD_TOO_LARGE" },
    });
    const stream = new Blob([body]).stream();
    const chunked = await fetch(url, { method: "POST", body: stream, headers, duplex: "half" } as RequestInit);
    expect(await answer(chunked)).toEqual({ status: 413, body: { error: "PAYLOAD_TOO_LARGE" } });
  });

  it("accepts 256 KB by default, sized for events (under 1 KB), and answers 413 beyond", async () => {
    const recorder = new Recorder();
    const url = await start(createNodeWebhookHandler(settings, recorder.onEvent));
    // As the service sends it: canonical (a body over 64 KB is checked over its bytes only).
    const body = canonicalize({
      ...payoutInReview,
      metadata: { ...payoutInReview.metadata, pad: "x".repeat(250 * 1024) },
    });
    expect((await fetch(url, { method: "POST", body, headers: await signText(body) })).status).toBe(200);
    const over = JSON.stringify({ ...payoutInReview, metadata: { pad: "x".repeat(256 * 1024) } });
    expect((await fetch(url, { method: "POST", body: over, headers: await signText(over) })).status).toBe(413);
  });
});

describe("createNodeWebhookHandler when the sender hangs up", () => {
  it("reports the aborted delivery instead of crashing the process, and keeps serving", async () => {
    const recorder = new Recorder();
    const url = await start(createNodeWebhookHandler({ ...settings, onError: recorder.onError }, recorder.onEvent));
    const { port } = new URL(url);
    const socket = connect(Number(port), "127.0.0.1");
    await once(socket, "connect");
    socket.write('POST /webhooks/exchange HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{"type":');
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await recorder.until(() => recorder.errors.length === 1);
    expect(String(recorder.errors[0])).toMatch(/aborted|closed the connection before the whole body arrived/);
    expect((await fetch(url, await delivery())).status).toBe(200);
  });
});

describe("createNodeWebhookHandler in Express", () => {
  it("works when mounted before express.json()", async () => {
    const recorder = new Recorder();
    const app = express();
    app.post("/webhooks/exchange", createNodeWebhookHandler(settings, recorder.onEvent));
    app.use(express.json());
    const url = await start(app);
    expect((await fetch(url, await delivery())).status).toBe(200);
    await recorder.until(() => recorder.events.length === 1);
  });

  it("works behind express.raw() on its route", async () => {
    const recorder = new Recorder();
    const app = express();
    app.post(
      "/webhooks/exchange",
      express.raw({ type: "application/json" }),
      createNodeWebhookHandler(settings, recorder.onEvent),
    );
    const url = await start(app);
    expect((await fetch(url, await delivery())).status).toBe(200);
    await recorder.until(() => recorder.events.length === 1);
  });

  it("answers 500 and reports a clear error when express.json() already parsed the body", async () => {
    const recorder = new Recorder();
    const app = express();
    app.use(express.json());
    app.post(
      "/webhooks/exchange",
      createNodeWebhookHandler({ ...settings, onError: recorder.onError }, recorder.onEvent),
    );
    const url = await start(app);
    const { status, body } = await answer(await fetch(url, await delivery()));
    expect(status).toBe(500);
    expect(body).toEqual({
      error: "RAW_BODY_UNAVAILABLE",
      message: expect.stringMatching(/already parsed into an object/),
    });
    expect(String(recorder.errors[0])).toMatch(
      /cannot verify the webhook: req.body was already parsed .* Mount the webhook route before express.json\(\) .* express.raw\(/,
    );
    expect(recorder.events).toEqual([]);
  });

  it("answers 500 when earlier middleware read the stream without leaving the raw body", async () => {
    const recorder = new Recorder();
    const app = express();
    app.use((req, _res, next) => {
      req.on("end", () => next()).resume();
    });
    app.post(
      "/webhooks/exchange",
      createNodeWebhookHandler({ ...settings, onError: recorder.onError }, recorder.onEvent),
    );
    const url = await start(app);
    const { status, body } = await answer(await fetch(url, await delivery()));
    expect(status).toBe(500);
    expect(body.message).toMatch(/already read by earlier middleware/);
  });

  it("refuses missing credentials at creation", () => {
    expect(() => createNodeWebhookHandler({ apiKey, apiSecret: "" }, () => {})).toThrow(TypeError);
  });
});
