// OpenTelemetry spans of webhook deliveries, recorded by the real SDK (sdk-trace-base, its in-memory exporter, the
// W3C propagator and the AsyncLocalStorage context manager as the Node SDK registers them).
import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDeduplicator, createWebhookHandler, memoryStore } from "../src/index.js";
import { apiKey, apiSecret, now, payoutInReview } from "./support/fixtures.js";
import { delivery, Recorder, settings } from "./support/receiver.js";

const exporter = new InMemorySpanExporter();
const URL_ = "http://127.0.0.1/webhooks/exchange";

beforeAll(() => {
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(() => {
  trace.disable();
  propagation.disable();
  context.disable();
});
afterEach(() => exporter.reset());

const spans = (name: string) => exporter.getFinishedSpans().filter((s) => s.name === name);
const childrenOf = (parent: ReadableSpan, name: string) =>
  spans(name).filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);

async function post(handler: (request: Request) => Promise<Response>, init: RequestInit): Promise<Response> {
  return handler(new Request(URL_, init));
}

describe("a delivery's span", () => {
  it("records an accepted delivery as a SERVER span with the event's type, name and id", async () => {
    const recorder = new Recorder();
    const handler = createWebhookHandler({ ...settings, onError: recorder.onError }, recorder.onEvent);
    expect((await post(handler, await delivery())).status).toBe(200);
    await recorder.until(() => recorder.events.length === 1);
    const [receive] = spans("exchange.webhook.receive");
    expect(receive!.kind).toBe(SpanKind.SERVER);
    expect(receive!.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.response.status_code": 200,
      "exchange.webhook.outcome": "accepted",
      "exchange.webhook.event_type": "PAYOUT",
      "exchange.webhook.event": "IN_REVIEW",
      "exchange.webhook.id": payoutInReview.id,
    });
    expect(receive!.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("records a rejected delivery with its code, as an error", async () => {
    const handler = createWebhookHandler({ ...settings, onError: () => {} }, () => {});
    const forged = await delivery();
    (forged.headers as Record<string, string>)["X-SIGNATURE"] = "AAAA".repeat(11);
    expect((await post(handler, forged)).status).toBe(401);
    const [receive] = spans("exchange.webhook.receive");
    expect(receive!.attributes).toMatchObject({
      "exchange.webhook.outcome": "rejected",
      "exchange.webhook.code": "INVALID_SIGNATURE",
      "error.type": "INVALID_SIGNATURE",
      "http.response.status_code": 401,
    });
    expect(receive!.status).toEqual({ code: SpanStatusCode.ERROR, message: "INVALID_SIGNATURE" });
  });

  it("records a redelivery as duplicate, with the dedup claim as a child span", async () => {
    const recorder = new Recorder();
    const deduplicator = createDeduplicator({ store: memoryStore() });
    const handler = createWebhookHandler({ ...settings, deduplicator }, recorder.onEvent);
    await post(handler, await delivery());
    await recorder.until(() => recorder.events.length === 1);
    await post(handler, await delivery());
    const receives = spans("exchange.webhook.receive");
    expect(receives.map((s) => s.attributes["exchange.webhook.outcome"])).toEqual(["accepted", "duplicate"]);
    for (const receive of receives) expect(childrenOf(receive, "exchange.webhook.dedup.claim")).toHaveLength(1);
  });

  it("records the handler's run as a child span, failed with the error's class when it throws", async () => {
    const failures: unknown[] = [];
    const handler = createWebhookHandler({ ...settings, onError: (e) => failures.push(e) }, () => {
      throw new RangeError("the payout row is locked");
    });
    await post(handler, await delivery());
    await expect.poll(() => spans("exchange.webhook.handle").length).toBe(1);
    const [handle] = spans("exchange.webhook.handle");
    const [receive] = spans("exchange.webhook.receive");
    expect(handle!.parentSpanContext?.spanId).toBe(receive!.spanContext().spanId);
    expect(handle!.attributes).toMatchObject({ "error.type": "RangeError", "exchange.webhook.event": "IN_REVIEW" });
    expect(handle!.status.code).toBe(SpanStatusCode.ERROR);
    expect(JSON.stringify(handle!.status)).not.toContain("locked");
  });

  it("continues the sender's trace when a traceparent arrives", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const parentId = "00f067aa0ba902b7";
    const init = await delivery();
    (init.headers as Record<string, string>).traceparent = `00-${traceId}-${parentId}-01`;
    await post(
      createWebhookHandler({ ...settings, deduplicator: false }, () => {}),
      init,
    );
    const [receive] = spans("exchange.webhook.receive");
    expect(receive!.spanContext().traceId).toBe(traceId);
    expect(receive!.parentSpanContext?.spanId).toBe(parentId);
  });

  it("puts no metadata, body, signature or secret in any span", async () => {
    const event = {
      type: "CUSTOMER",
      id: "3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f",
      event: "VERIFIED",
      timestamp: "2026-03-01T10:55:02Z",
      metadata: { full_name: "Zoya Khatun", email: "zoya.khatun@example.com", account_number: "123456789012" },
    };
    const recorder = new Recorder();
    const init = await delivery(event, now);
    const handler = createWebhookHandler({ apiKey, apiSecret, now, onError: recorder.onError }, recorder.onEvent);
    expect((await post(handler, init)).status).toBe(200);
    await recorder.until(() => recorder.events.length === 1);
    const ofThisEvent = (s: ReadableSpan) => s.attributes["exchange.webhook.id"] === event.id;
    await expect.poll(() => spans("exchange.webhook.handle").filter(ofThisEvent).length).toBe(1);
    const signature = (init.headers as Record<string, string>)["X-SIGNATURE"]!;
    const text = JSON.stringify(
      exporter.getFinishedSpans().map((s) => [s.name, s.attributes, s.status, s.events.map((e) => e.attributes)]),
    );
    for (const value of [apiKey, apiSecret, signature, "Zoya", "zoya.khatun@example.com", "123456789012"]) {
      expect(text, value).not.toContain(value);
    }
  });
});
