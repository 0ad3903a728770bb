import { serve } from "@hono/node-server";
import type { Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  createDeduplicator,
  createWebhookHandler,
  type DedupStore,
  DedupStoreError,
  memoryStore,
  WebhookVerificationError,
} from "../src/index.js";
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

/** The Fetch handler served by @hono/node-server on a loopback port. */
async function serveHandler(handler: (request: Request) => Promise<Response>): Promise<string> {
  server = await listening(serve({ fetch: (request) => handler(request), hostname: "127.0.0.1", port: 0 }) as Server);
  return `${urlOf(server)}/webhooks/exchange`;
}

afterEach(async () => {
  if (server) await closed(server);
  server = undefined;
});

async function answer(response: Response) {
  return { status: response.status, body: await response.json() };
}

describe("createWebhookHandler on a real server", () => {
  it("answers 200 to a signed delivery, then hands the event to onEvent", async () => {
    const recorder = new Recorder();
    const url = await serveHandler(createWebhookHandler({ ...settings, onError: recorder.onError }, recorder.onEvent));
    expect(await answer(await fetch(url, await delivery()))).toEqual({ status: 200, body: { received: true } });
    await recorder.until(() => recorder.events.length === 1);
    expect(recorder.events[0]).toEqual({ ...payoutInReview, known: true });
  });

  it("answers before onEvent finishes: slow work does not delay the acknowledgement", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let finished = false;
    const url = await serveHandler(
      createWebhookHandler(settings, async () => {
        await gate;
        finished = true;
      }),
    );
    const response = await fetch(url, await delivery());
    expect(response.status).toBe(200);
    expect(finished).toBe(false);
    release();
  });

  it("answers 401 with only the code to a tampered delivery, and reports the detail to onError", async () => {
    const recorder = new Recorder();
    const url = await serveHandler(createWebhookHandler({ ...settings, onError: recorder.onError }, recorder.onEvent));
    const init = await delivery();
    const tampered = { ...init, body: String(init.body).replace("payout-000789", "payout-999999") };
    expect(await answer(await fetch(url, tampered))).toEqual({ status: 401, body: { error: "INVALID_SIGNATURE" } });
    expect(recorder.events).toEqual([]);
    expect(recorder.errors).toEqual([expect.any(WebhookVerificationError)]);
    expect((recorder.errors[0] as Error).message).toMatch(/does not match/);
  });

  it("answers 401 to a stale delivery and to one without signature headers", async () => {
    const recorder = new Recorder();
    const url = await serveHandler(createWebhookHandler({ ...settings, onError: recorder.onError }, recorder.onEvent));
    const stale = await delivery(payoutInReview, now - 301);
    expect(await answer(await fetch(url, stale))).toEqual({
      status: 401,
      body: { error: "TIMESTAMP_OUT_OF_TOLERANCE" },
    });
    const unsigned = { method: "POST", body: "{}", headers: { "content-type": "application/json" } };
    expect(await answer(await fetch(url, unsigned))).toEqual({ status: 401, body: { error: "MISSING_HEADER" } });
    expect(recorder.events).toEqual([]);
  });

  it("answers 200 to a duplicate without running onEvent again", async () => {
    const recorder = new Recorder();
    const url = await serveHandler(createWebhookHandler(settings, recorder.onEvent));
    const init = await delivery();
    await fetch(url, init);
    await recorder.until(() => recorder.events.length === 1);
    expect(await answer(await fetch(url, init))).toEqual({ status: 200, body: { received: true, duplicate: true } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(recorder.events).toHaveLength(1);
  });

  it("answers 409 to a redelivery while the first is still in onEvent, so the service retries it later", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const url = await serveHandler(createWebhookHandler(settings, () => gate));
    const init = await delivery();
    expect((await fetch(url, init)).status).toBe(200);
    expect(await answer(await fetch(url, init))).toEqual({ status: 409, body: { error: "IN_PROGRESS" } });
    release();
  });

  it("runs onEvent again on redelivery after it threw, and reports the error", async () => {
    const recorder = new Recorder();
    let calls = 0;
    const url = await serveHandler(
      createWebhookHandler({ ...settings, onError: recorder.onError }, (event) => {
        if (++calls === 1) throw new Error("database down");
        recorder.onEvent(event);
      }),
    );
    const init = await delivery();
    expect((await fetch(url, init)).status).toBe(200);
    await recorder.until(() => recorder.errors.length === 1);
    expect(recorder.errors[0]).toEqual(new Error("database down"));
    expect((await fetch(url, init)).status).toBe(200);
    await recorder.until(() => recorder.events.length === 1);
    expect(calls).toBe(2);
  });

  it("answers 401 INVALID_TIMESTAMP to an unsigned request whose timestamp has leading zeros, logging no error", async () => {
    const url = await serveHandler(createWebhookHandler(settings, () => {}));
    let response: { status: number; body: unknown } | undefined;
    const logged = await consoleOutput(async () => {
      response = await answer(await fetch(url, unsignedDelivery(`000${now}`)));
    });
    expect(response).toEqual({ status: 401, body: { error: "INVALID_TIMESTAMP" } });
    expect(logged.error).toEqual([]);
    expect(logged.warn).toEqual([[expect.stringMatching(/^webhook rejected: INVALID_TIMESTAMP: /)]]);
  });

  it("answers 405 with Allow: POST to other methods", async () => {
    const url = await serveHandler(createWebhookHandler(settings, () => {}));
    const response = await fetch(url);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });

  it("answers 413 to a body over maxBodyBytes", async () => {
    const url = await serveHandler(createWebhookHandler({ ...settings, maxBodyBytes: 1024 }, () => {}));
    const body = JSON.stringify({ ...payoutInReview, metadata: { pad: "x".repeat(2048) } });
    const response = await fetch(url, { method: "POST", body, headers: await signText(body) });
    expect(await answer(response)).toEqual({ status: 413, body: { error: "PAYLOAD_TOO_LARGE" } });
  });

  it("answers 400 to a signed body that is not a webhook event", async () => {
    const url = await serveHandler(createWebhookHandler({ ...settings, onError: () => {} }, () => {}));
    const body = JSON.stringify({ ...payoutInReview, id: "not-a-uuid" });
    const response = await fetch(url, { method: "POST", body, headers: await signText(body) });
    expect(await answer(response)).toEqual({ status: 400, body: { error: "INVALID_EVENT" } });
  });

  it("acknowledges an event the catalog does not know and hands it over marked unknown", async () => {
    const recorder = new Recorder();
    const url = await serveHandler(createWebhookHandler(settings, recorder.onEvent));
    expect((await fetch(url, await delivery({ ...payoutInReview, event: "CANCELLED" }))).status).toBe(200);
    await recorder.until(() => recorder.events.length === 1);
    expect(recorder.events[0]).toMatchObject({ known: false, event: "CANCELLED" });
  });

  it("answers 503 with Retry-After when the dedup store is down, so the service redelivers", async () => {
    const broken: DedupStore = {
      claim: () => Promise.reject(new Error("connection refused")),
      complete: async () => {},
      release: async () => {},
    };
    const recorder = new Recorder();
    const options = { ...settings, deduplicator: createDeduplicator({ store: broken }), onError: recorder.onError };
    const url = await serveHandler(createWebhookHandler(options, recorder.onEvent));
    const response = await fetch(url, await delivery());
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await answer(response)).toEqual({ status: 503, body: { error: "DEDUP_STORE_UNAVAILABLE" } });
    expect(recorder.errors).toHaveLength(1);
    expect(recorder.errors[0]).toBeInstanceOf(DedupStoreError);
    expect(recorder.errors[0]).toMatchObject({
      operation: "claim",
      timedOut: false,
      cause: new Error("connection refused"),
    });
    expect(recorder.events).toEqual([]);
  });

  it("answers 503 once the store timeout passes when the dedup store never answers", async () => {
    const hanging: DedupStore = {
      claim: () => new Promise(() => {}),
      complete: async () => {},
      release: () => new Promise(() => {}),
    };
    const recorder = new Recorder();
    const deduplicator = createDeduplicator({ store: hanging, storeTimeoutMs: 50 });
    const handler = createWebhookHandler({ ...settings, deduplicator, onError: recorder.onError }, recorder.onEvent);
    const response = await handler(new Request("https://receiver.example/webhooks", await delivery()));
    expect(response.status).toBe(503);
    expect(recorder.errors[0]).toMatchObject({ operation: "claim", timedOut: true });
    expect(recorder.events).toEqual([]);
  });
});

describe("createWebhookHandler called directly", () => {
  const request = async (init?: RequestInit) =>
    new Request("https://receiver.example/webhooks", init ?? (await delivery()));

  it("keeps onEvent alive with the context's waitUntil where the runtime passes one", async () => {
    const recorder = new Recorder();
    const handler = createWebhookHandler(settings, recorder.onEvent);
    const kept: Promise<unknown>[] = [];
    const response = await handler(await request(), { waitUntil: (promise) => kept.push(promise) });
    expect(response.status).toBe(200);
    expect(kept).toHaveLength(1);
    expect(recorder.events).toHaveLength(0); // not before the answer
    await kept[0];
    expect(recorder.events).toHaveLength(1);
  });

  it("uses the waitUntil option when the handler gets no context (Next.js with after(), Vercel)", async () => {
    const kept: Promise<unknown>[] = [];
    const handler = createWebhookHandler({ ...settings, waitUntil: (promise) => kept.push(promise) }, () => {});
    await handler(await request());
    expect(kept).toHaveLength(1);
  });

  it("passes every delivery to onEvent when deduplication is off", async () => {
    const recorder = new Recorder();
    const handler = createWebhookHandler({ ...settings, deduplicator: false }, recorder.onEvent);
    const init = await delivery();
    await handler(await request(init));
    await handler(await request(init));
    await recorder.until(() => recorder.events.length === 2);
  });

  it("shares deduplication between handlers given the same deduplicator", async () => {
    const recorder = new Recorder();
    const deduplicator = createDeduplicator({ store: memoryStore() });
    const first = createWebhookHandler({ ...settings, deduplicator }, recorder.onEvent);
    const second = createWebhookHandler({ ...settings, deduplicator }, recorder.onEvent);
    const init = await delivery();
    expect((await first(await request(init))).status).toBe(200);
    await recorder.until(() => recorder.events.length === 1);
    expect(await (await second(await request(init))).json()).toEqual({ received: true, duplicate: true });
  });

  it("fails at creation, not at the first delivery, when the credentials are missing", () => {
    expect(() => createWebhookHandler({ apiKey, apiSecret: "" }, () => {})).toThrow(TypeError);
  });

  it("reports an onEvent failure to console.error by default", async () => {
    const logged: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      const kept: Promise<unknown>[] = [];
      const handler = createWebhookHandler(settings, () => {
        throw new Error("boom");
      });
      await handler(await request(), { waitUntil: (promise) => kept.push(promise) });
      await kept[0];
      expect(logged).toEqual([["webhook handling failed:", new Error("boom")]]);
    } finally {
      console.error = original;
    }
  });
});
