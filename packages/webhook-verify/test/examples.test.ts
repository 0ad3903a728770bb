import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from "vitest";
import { type ReceivedWebhookEvent, signTestWebhook } from "../src/index.js";
import { apiKey, apiSecret, payoutInReview } from "./support/fixtures.js";
import { closed, listening } from "./support/receiver.js";
import { redisServerAvailable, type RedisServer, startRedisServer, urlOf } from "./support/servers.js";
import { specExamples } from "./support/spec.js";

// The README's receivers are the files in examples/, run here exactly as users would run them.

const example = (name: string) => readFileSync(new URL(`../examples/${name}`, import.meta.url), "utf8");
const exampleNamed = (webhook: string, name: string) =>
  specExamples().find((e) => e.webhook === webhook && e.name === name)!.value;

let log: MockInstance<typeof console.log>;
let warn: MockInstance<typeof console.warn>;
const savedEnv = { ...process.env };

beforeAll(() => {
  Object.assign(process.env, { EXCHANGE_API_KEY: apiKey, EXCHANGE_API_SECRET: apiSecret, PORT: "0" });
  log = vi.spyOn(console, "log").mockImplementation(() => {});
  warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  vi.spyOn(console, "error").mockImplementation(() => {});
});

afterAll(() => {
  process.env = savedEnv;
  vi.restoreAllMocks();
});

async function post(url: string, event: object, tamper = false, timestamp?: number) {
  const { body, headers } = await signTestWebhook({
    event,
    apiKey,
    apiSecret,
    ...(timestamp === undefined ? {} : { timestamp }),
  });
  const response = await fetch(url, {
    method: "POST",
    headers,
    body: tamper ? body.replace(/"id":"./, '"id":"0') : body,
  });
  return { status: response.status, body: await response.json() };
}

async function logged(spy: MockInstance, text: string | RegExp): Promise<void> {
  await vi.waitFor(() => expect(spy.mock.calls.flat().join("\n")).toMatch(text), { timeout: 5_000 });
}

describe("the README and the receivers guide", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const guide = readFileSync(new URL("../../../docs/guides/webhook-receivers.md", import.meta.url), "utf8");
  it.each(["express-receiver.ts", "hono-receiver.ts", "next-route.ts"])(
    "the README contains examples/%s verbatim",
    (name) => {
      expect(readme).toContain("```ts\n" + example(name) + "```");
    },
  );
  it.each(["express-inbox-receiver.ts"])("the guide contains examples/%s verbatim", (name) => {
    expect(guide).toContain("```ts\n" + example(name) + "```");
  });
});

describe.runIf(redisServerAvailable())("examples/express-receiver.ts", () => {
  let redisServer: RedisServer;
  let receiver: typeof import("../examples/express-receiver.js");
  let url: string;

  beforeAll(async () => {
    redisServer = await startRedisServer({ appendfsync: "everysec" });
    process.env.REDIS_URL = redisServer.url;
    receiver = await import("../examples/express-receiver.js");
    url = `${urlOf(await listening(receiver.server))}/webhooks/exchange`;
  });

  afterAll(async () => {
    if (receiver) {
      await closed(receiver.server);
      await receiver.redis.close();
    }
    await redisServer?.stop();
  });

  it("acknowledges a signed delivery and handles it after the answer", async () => {
    expect(await post(url, payoutInReview)).toEqual({ status: 200, body: { received: true } });
    await logged(log, `payout ${payoutInReview.id} needs information: ${payoutInReview.metadata.rfi_link}`);
  });

  it("runs the handlers registered for the event's type and event, with its typed metadata", async () => {
    const event = exampleNamed("payout", "success");
    expect(await post(url, event)).toEqual({ status: 200, body: { received: true } });
    const { client_reference_id, utr } = event.metadata;
    await logged(log, `payout ${event.id} (${client_reference_id}) paid, UTR ${utr}`);
    await logged(log, `payout ${event.id} is SUCCESS`); // onAny, registered first
  });

  it("answers a redelivery 200 without handling it again", async () => {
    const event = exampleNamed("payin", "success");
    await post(url, event);
    await logged(log, `payin ${event.id} paid:`);
    expect(await post(url, event)).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(log.mock.calls.flat().filter((line) => String(line).startsWith(`payin ${event.id} paid`))).toHaveLength(1);
  });

  it("rejects a tampered delivery and a stale one with 401", async () => {
    expect(await post(url, exampleNamed("bank", "verified"), true)).toEqual({
      status: 401,
      body: { error: "INVALID_SIGNATURE" },
    });
    const stale = Math.floor(Date.now() / 1000) - 600;
    expect(await post(url, exampleNamed("bank", "failed"), false, stale)).toEqual({
      status: 401,
      body: { error: "TIMESTAMP_OUT_OF_TOLERANCE" },
    });
  });

  it("acknowledges an event the catalog does not know, and warns", async () => {
    expect((await post(url, { ...payoutInReview, event: "CANCELLED" })).status).toBe(200);
    await logged(warn, "new kind of event PAYOUT CANCELLED");
  });

  it("logs a rejected delivery as one line with its code and message, without a stack", async () => {
    const errors = vi.mocked(console.error).mock.calls.length;
    await post(url, exampleNamed("customer", "verified"), true);
    await logged(warn, /^webhook rejected: INVALID_SIGNATURE: \S/m);
    const line = warn.mock.calls.find((call) => String(call[0]).startsWith("webhook rejected: INVALID_SIGNATURE"))!;
    expect(line).toHaveLength(1);
    expect(String(line[0])).not.toMatch(/\n\s+at /);
    expect(vi.mocked(console.error).mock.calls.length).toBe(errors);
  });
});

describe.runIf(redisServerAvailable())("examples/express-inbox-receiver.ts", () => {
  let redisServer: RedisServer;
  let receiver: typeof import("../examples/express-inbox-receiver.js");
  let url: string;

  beforeAll(async () => {
    redisServer = await startRedisServer({ appendfsync: "everysec" });
    process.env.REDIS_URL = redisServer.url;
    receiver = await import("../examples/express-inbox-receiver.js");
    url = `${urlOf(await listening(receiver.server))}/webhooks/exchange`;
  });

  afterAll(async () => {
    if (receiver) {
      await closed(receiver.server);
      await receiver.inbox.stop();
      await receiver.redis.close();
    }
    await redisServer?.stop();
  });

  it("stores a signed delivery before its 200, then runs it", async () => {
    const event = exampleNamed("payout", "success");
    expect(await post(url, event)).toEqual({ status: 200, body: { received: true } });
    await logged(log, `payout ${event.id} is SUCCESS (run 1)`);
  });

  it("answers a redelivery 200 as a duplicate, and does not run it again", async () => {
    const event = exampleNamed("customer", "verified");
    await post(url, event);
    await logged(log, `customer ${event.id} is VERIFIED (run 1)`);
    expect(await post(url, event)).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(await receiver.redis.xLen("exchange-kit:inbox:stream")).toBe(0); // nothing waiting to run
    expect(log.mock.calls.flat().filter((line) => String(line).startsWith(`customer ${event.id} is`))).toHaveLength(1);
  });

  it("rejects a tampered delivery with 401 and stores nothing", async () => {
    expect(await post(url, exampleNamed("bank", "verified"), true)).toEqual({
      status: 401,
      body: { error: "INVALID_SIGNATURE" },
    });
  });
});

describe("examples/inbox-router.ts", () => {
  let example: typeof import("../examples/inbox-router.js");

  beforeAll(async () => {
    example = await import("../examples/inbox-router.js");
    example.inbox.start();
  });

  afterAll(async () => {
    await example?.inbox.stop();
  });

  const received = (value: object) => ({ ...value, known: true }) as ReceivedWebhookEvent;

  it("runs an accepted PAYOUT SUCCESS through its typed handler", async () => {
    const event = exampleNamed("payout", "success");
    await example.inbox.accept(received(event));
    const { utr, client_reference_id } = event.metadata;
    await logged(log, `payout ${event.id} paid, UTR ${utr} (${client_reference_id})`);
  });

  it("gives the type's handler the inbox's attempt", async () => {
    const event = exampleNamed("customer", "verified");
    await example.inbox.accept(received(event));
    await logged(log, `customer ${event.id} is VERIFIED (run 1)`);
  });

  it("sends an event the catalog does not know to onUnknown", async () => {
    const unknown: ReceivedWebhookEvent = { ...payoutInReview, event: "ON_HOLD", known: false, unknownReason: "new" };
    await example.inbox.accept(unknown);
    await logged(warn, "new kind of event PAYOUT ON_HOLD: new");
  });
});

describe("examples/hono-receiver.ts", () => {
  let receiver: typeof import("../examples/hono-receiver.js");
  let url: string;

  beforeAll(async () => {
    receiver = await import("../examples/hono-receiver.js");
    url = `${urlOf(await listening(receiver.server as Server))}/webhooks/exchange`;
  });

  afterAll(async () => {
    if (receiver) await closed(receiver.server as Server);
  });

  it("acknowledges a signed delivery and handles it after the answer", async () => {
    const event = exampleNamed("customer", "failed");
    expect(await post(url, event)).toEqual({ status: 200, body: { received: true } });
    await logged(log, `customer ${event.id} failed KYC: DOCUMENT_VERIFICATION_FAILED`);
  });

  it("rejects a tampered delivery and a stale one with 401", async () => {
    expect(await post(url, exampleNamed("edd", "verified"), true)).toEqual({
      status: 401,
      body: { error: "INVALID_SIGNATURE" },
    });
    const stale = Math.floor(Date.now() / 1000) - 600;
    expect(await post(url, exampleNamed("payin", "failed"), false, stale)).toEqual({
      status: 401,
      body: { error: "TIMESTAMP_OUT_OF_TOLERANCE" },
    });
  });

  it("acknowledges an event the catalog does not know, and warns", async () => {
    expect((await post(url, { ...payoutInReview, type: "WALLET" })).status).toBe(200);
    await logged(warn, "new kind of event WALLET IN_REVIEW");
  });

  it("answers a redelivery 200 without handling it again", async () => {
    const event = exampleNamed("edd", "failed");
    await post(url, event);
    await logged(log, `edd ${event.id} is FAILED`);
    expect(await post(url, event)).toEqual({ status: 200, body: { received: true, duplicate: true } });
  });
});

describe("examples/next-route.ts", () => {
  it("handles a signed delivery posted to the route", async () => {
    const { POST } = await import("../examples/next-route.js");
    const event = exampleNamed("bank", "verified");
    const { body, headers } = await signTestWebhook({ event, apiKey, apiSecret });
    const response = await POST(
      new Request("https://app.example/api/webhooks/exchange", { method: "POST", headers, body }),
    );
    expect(response.status).toBe(200);
    await logged(log, `bank account ${event.id} is VERIFIED`);
  });
});
