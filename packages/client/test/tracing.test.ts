// OpenTelemetry spans of the client, recorded by the real SDK (sdk-trace-base, its in-memory exporter) over real HTTP
// to a server on 127.0.0.1: a span per call, a span per attempt, the attributes the issue asks for, traceparent on
// the wire, the history-lookup event, and nothing secret or personal in any attribute.
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
import { createExchangeClient, type ExchangeClientOptions } from "../src/index.js";
import { okEnvelope, startServer, type TestServer } from "./support/http-server.js";

const API_KEY = "trace-key-AKIA5555";
const API_SECRET = "trace-secret-do-not-leak-7777";
const CUSTOMER = "3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f";
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

/** What the server answers next, per path: a list of [status, body] consumed in order, then the last one repeats. */
const script = new Map<string, [number, unknown][]>();
let server: TestServer;

const envelopeError = (errCode: string, message: string) => ({ status: false, message, err_code: errCode });

beforeAll(async () => {
  server = await startServer((request, response) => {
    const path = request.url.split("?")[0]!;
    const queue = script.get(path) ?? [[404, envelopeError("NOT_FOUND", "no such path")]];
    const [status, body] = queue.length > 1 ? queue.shift()! : queue[0]!;
    response.writeHead(status, { "content-type": "application/json" });
    response.end(typeof body === "string" ? body : JSON.stringify(body));
  });
});
afterAll(async () => {
  await server.close();
  trace.disable();
  propagation.disable();
  context.disable();
});
afterEach(() => {
  exporter.reset();
  script.clear();
  server.arrived.length = 0;
});

function client(options: ExchangeClientOptions = {}) {
  return createExchangeClient({
    baseUrl: server.url,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    retryBaseMs: 1,
    ...options,
  });
}

const byName = (name: string) => exporter.getFinishedSpans().filter((s) => s.name === name);
const attemptsOf = (parent: ReadableSpan) =>
  exporter
    .getFinishedSpans()
    .filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId)
    .sort((a, b) => Number(a.attributes["exchange.attempt"]) - Number(b.attributes["exchange.attempt"]));

describe("without a registered tracer provider", () => {
  it("records nothing and sends no traceparent", async () => {
    script.set(`/cms/api/v1/customer/${CUSTOMER}`, [[200, { status: true, message: "ok", data: { id: CUSTOMER } }]]);
    await client().customers.get(CUSTOMER);
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(server.arrived[0]!.headers.traceparent).toBeUndefined();
  });
});

describe("with a tracer provider registered", () => {
  beforeAll(() => {
    // What the Node SDK registers: a provider, the W3C propagator and an AsyncLocalStorage context manager.
    trace.setGlobalTracerProvider(provider);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });

  it("gives a call that got 503 twice then 200 one operation span and three attempt spans", async () => {
    script.set(`/cms/api/v1/customer/${CUSTOMER}`, [
      [503, envelopeError("SYS_SERVICE_UNAVAILABLE", "down")],
      [503, envelopeError("SYS_SERVICE_UNAVAILABLE", "down")],
      [200, { status: true, message: "ok", data: { id: CUSTOMER } }],
    ]);
    await client().customers.get(CUSTOMER);
    const [call] = byName("exchange.getCustomer");
    expect(call).toBeDefined();
    expect(call!.kind).toBe(SpanKind.CLIENT);
    expect(call!.attributes).toMatchObject({
      "exchange.operation_id": "getCustomer",
      "exchange.idempotency": "safe",
      "exchange.attempts": 3,
    });
    expect(call!.status.code).toBe(SpanStatusCode.UNSET);
    const attempts = attemptsOf(call!);
    expect(attempts.map((s) => s.attributes["exchange.attempt"])).toEqual([1, 2, 3]);
    expect(attempts.map((s) => s.attributes["http.response.status_code"])).toEqual([503, 503, 200]);
    const port = Number(new URL(server.url).port);
    for (const span of attempts) {
      expect(span.name).toBe("GET /cms/api/v1/customer/{customer_id}");
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.attributes).toMatchObject({
        "http.request.method": "GET",
        "server.address": "127.0.0.1",
        "server.port": port,
        "url.template": "/cms/api/v1/customer/{customer_id}",
      });
    }
    expect(attempts[0]!.attributes).toMatchObject({
      "error.type": "SYS_SERVICE_UNAVAILABLE",
      "exchange.err_code": "SYS_SERVICE_UNAVAILABLE",
    });
    expect(attempts[0]!.attributes["exchange.retry_after_ms"]).toEqual(expect.any(Number));
    expect(attempts[0]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(attempts[2]!.attributes["error.type"]).toBeUndefined();
    expect(attempts[2]!.attributes["exchange.retry_after_ms"]).toBeUndefined();
  });

  it("never names a span with the ids of the URL", async () => {
    script.set(`/cms/api/v1/customer/${CUSTOMER}`, [[200, { status: true, message: "ok", data: { id: CUSTOMER } }]]);
    await client().customers.get(CUSTOMER);
    for (const span of exporter.getFinishedSpans()) expect(span.name).not.toContain(CUSTOMER);
  });

  it("gives client.request the spec's template for a path that matches an operation, never the path", async () => {
    script.set(`/cms/api/v1/customer/${CUSTOMER}`, [[200, { status: true, message: "ok", data: { id: CUSTOMER } }]]);
    await client().request("GET", `/cms/api/v1/customer/${CUSTOMER}`);
    const [call] = byName("exchange.request");
    expect(call!.attributes["url.template"]).toBe("/cms/api/v1/customer/{customer_id}");
    expect(JSON.stringify(exporter.getFinishedSpans().map((s) => [s.name, s.attributes]))).not.toContain(CUSTOMER);
  });

  it("gives client.request a fixed placeholder for a path no operation has, never the ids, email or query in it", async () => {
    const path = "/v2/people/zoya.khatun@example.com/orders/7f1c0b2e-9d1a-4b7e-8c3f-2a1b0c9d8e7f;q=phone:919812345678";
    script.set(path, [[200, { status: true, message: "ok", data: {} }]]);
    await client().request("GET", path);
    const [call] = byName("exchange.request");
    expect(call!.attributes["url.template"]).toBe("/{unknown}");
    const text = JSON.stringify(exporter.getFinishedSpans().map((s) => [s.name, s.attributes]));
    for (const part of ["zoya", "7f1c0b2e", "919812345678", "people"]) expect(text, part).not.toContain(part);
  });

  it("sends each attempt's own traceparent, which names the attempt span", async () => {
    script.set(`/cms/api/v1/customer/${CUSTOMER}`, [
      [503, envelopeError("SYS_SERVICE_UNAVAILABLE", "down")],
      [200, { status: true, message: "ok", data: { id: CUSTOMER } }],
    ]);
    await client().customers.get(CUSTOMER);
    const attempts = attemptsOf(byName("exchange.getCustomer")[0]!);
    const sent = server.arrived.map((r) => r.headers.traceparent);
    expect(sent).toEqual(attempts.map((s) => `00-${s.spanContext().traceId}-${s.spanContext().spanId}-01`));
  });

  it("sends no traceparent with propagateTraceContext: false, and still records the spans", async () => {
    script.set(`/cms/api/v1/customer/${CUSTOMER}`, [[200, { status: true, message: "ok", data: { id: CUSTOMER } }]]);
    await client({ propagateTraceContext: false }).customers.get(CUSTOMER);
    expect(server.arrived[0]!.headers.traceparent).toBeUndefined();
    expect(byName("exchange.getCustomer")).toHaveLength(1);
  });

  it("records nothing with tracing: false", async () => {
    script.set(`/cms/api/v1/customer/${CUSTOMER}`, [[200, { status: true, message: "ok", data: { id: CUSTOMER } }]]);
    await client({ tracing: false }).customers.get(CUSTOMER);
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(server.arrived[0]!.headers.traceparent).toBeUndefined();
  });

  it("continues the application's active trace: the call span is a child of the active span", async () => {
    script.set(`/cms/api/v1/customer/${CUSTOMER}`, [[200, { status: true, message: "ok", data: { id: CUSTOMER } }]]);
    const outer = trace.getTracer("app").startSpan("handle-payout");
    await context.with(trace.setSpan(context.active(), outer), () => client().customers.get(CUSTOMER));
    outer.end();
    const [call] = byName("exchange.getCustomer");
    expect(call!.spanContext().traceId).toBe(outer.spanContext().traceId);
    expect(call!.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
  });

  it("fails the call span with the err_code as its type and no message of the service", async () => {
    script.set("/cms/api/v1/customer/create", [
      [400, envelopeError("USR_DUPLICATE_CONTACT", "asha.verma@example.com is already registered")],
    ]);
    const create = client().customers.create({
      client_reference_id: "c-1",
      alpha_3_country_code: "IND",
      full_name: "Asha Verma",
      email: "asha.verma@example.com",
    } as never);
    await expect(create).rejects.toThrow();
    const [call] = byName("exchange.createCustomer");
    expect(call!.status).toEqual({ code: SpanStatusCode.ERROR, message: "USR_DUPLICATE_CONTACT" });
    expect(call!.attributes).toMatchObject({
      "error.type": "USR_DUPLICATE_CONTACT",
      "exchange.err_code": "USR_DUPLICATE_CONTACT",
    });
    expect(call!.events).toEqual([]);
  });

  it("names a failure without an answer by its error class", async () => {
    const unreachable = createExchangeClient({
      baseUrl: "http://127.0.0.1:9",
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      retryBaseMs: 1,
      maxRetries: 1,
    });
    await expect(unreachable.customers.get(CUSTOMER)).rejects.toThrow();
    const attempts = attemptsOf(byName("exchange.getCustomer")[0]!);
    expect(attempts.map((s) => s.attributes["error.type"])).toEqual(["ExchangeNetworkError", "ExchangeNetworkError"]);
    expect(attempts.map((s) => s.attributes["http.response.status_code"])).toEqual([undefined, undefined]);
  });

  it("records the history lookup that finds the order an ambiguous initiate created", async () => {
    const reference = "payout-ref-trace-1";
    script.set("/pos/api/v1/payout/initiate", [[500, envelopeError("SYS_INTERNAL_ERROR", "boom")]]);
    script.set("/pos/api/v1/payout/history", [
      [
        200,
        okEnvelope({
          count: 1,
          next: null,
          previous: null,
          results: [{ id: "order-1", client_reference_id: reference, status: "PROCESSING" }],
        }),
      ],
    ]);
    const order = await client().payouts.initiate({
      quotation_id: "e1d2c3b4-a5f6-4e7d-8c9b-0a1f2e3d4c5b",
      client_reference_id: reference,
    } as never);
    expect(order).toMatchObject({ id: "order-1" });
    const [call] = byName("exchange.initiatePayout");
    expect(call!.attributes["exchange.idempotency"]).toBe("guarded");
    expect(call!.events.map((e) => [e.name, e.attributes])).toEqual([
      ["exchange.history_lookup", { "exchange.lookup.result": "found" }],
    ]);
    // The lookup's own call nests under the initiate's span.
    const [history] = byName("exchange.listPayoutHistory");
    expect(history!.parentSpanContext?.spanId).toBe(call!.spanContext().spanId);
  });

  it("records the customer lookup of a create that met its own reference the same way", async () => {
    const reference = "cust-ref-trace-1";
    script.set("/cms/api/v1/customer/create", [
      [500, envelopeError("SYS_INTERNAL_ERROR", "boom")],
      [400, { status: false, message: "Client Reference ID already exists", data: null, errors: {} }],
    ]);
    script.set("/cms/api/v1/customer/list", [
      [
        200,
        okEnvelope({
          count: 1,
          next: null,
          previous: null,
          results: [{ id: CUSTOMER, client_reference_id: reference }],
        }),
      ],
    ]);
    const body = { client_reference_id: reference, full_name: "Asha Verma", alpha_3_country_code: "IND" };
    expect(await client().customers.create(body)).toMatchObject({ id: CUSTOMER });
    const [call] = byName("exchange.createCustomer");
    expect(call!.attributes["exchange.idempotency"]).toBe("safe-by-reference");
    expect(call!.events.map((e) => [e.name, e.attributes])).toEqual([
      ["exchange.history_lookup", { "exchange.lookup.result": "found" }],
    ]);
    expect(call!.status.code).toBe(SpanStatusCode.UNSET);
    const [list] = byName("exchange.listCustomers");
    expect(list!.parentSpanContext?.spanId).toBe(call!.spanContext().spanId);
  });

  it("records a delete resolved as done by an earlier attempt as an outcome event", async () => {
    const path = `/cms/api/v1/bank/${CUSTOMER}/9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d/delete`;
    script.set(path, [
      [500, envelopeError("SYS_INTERNAL_ERROR", "boom")],
      [400, envelopeError("BANK_NOT_FOUND", "Bank not found or access denied")],
    ]);
    const result = await client().banks.delete(CUSTOMER, "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d");
    expect(result).toEqual({ deletedByEarlierAttempt: true, attempts: 2 });
    const [call] = byName("exchange.deleteBankAccount");
    expect(call!.attributes).toMatchObject({ "exchange.idempotency": "safe-delete", "exchange.attempts": 2 });
    expect(call!.events.map((e) => [e.name, e.attributes])).toEqual([
      ["exchange.outcome_resolved", { "exchange.outcome": "deleted_by_earlier_attempt" }],
    ]);
    expect(call!.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("records a lookup that finds nothing as not_found", async () => {
    const reference = "payout-ref-trace-2";
    script.set("/pos/api/v1/payout/initiate", [
      [503, envelopeError("SYS_SERVICE_UNAVAILABLE", "down")],
      [200, okEnvelope({ id: "order-2", client_reference_id: reference, status: "PROCESSING" })],
    ]);
    script.set("/pos/api/v1/payout/history", [
      [200, okEnvelope({ count: 0, next: null, previous: null, results: [] })],
    ]);
    await client().payouts.initiate({
      quotation_id: "e1d2c3b4-a5f6-4e7d-8c9b-0a1f2e3d4c5b",
      client_reference_id: reference,
    } as never);
    const [call] = byName("exchange.initiatePayout");
    expect(call!.events.map((e) => e.attributes?.["exchange.lookup.result"])).toEqual(["not_found"]);
  });

  it("puts no secret, signature, body or personal data in any span", async () => {
    const person = {
      client_reference_id: "c-pii-1",
      alpha_3_country_code: "IND",
      full_name: "Zoya Khatun",
      email: "zoya.khatun@example.com",
      phone: "+919812345678",
    };
    script.set("/cms/api/v1/customer/create", [
      [503, envelopeError("SYS_SERVICE_UNAVAILABLE", "down")],
      [400, envelopeError("USR_DUPLICATE_CONTACT", `${person.email} / ${person.phone} exists for ${person.full_name}`)],
    ]);
    await expect(client().customers.create(person as never)).rejects.toThrow();
    const signatures = server.arrived.map((r) => String(r.headers["x-signature"]));
    const forbidden = [API_KEY, API_SECRET, ...signatures, person.full_name, "Zoya", person.email, person.phone];
    const spans = exporter.getFinishedSpans();
    expect(spans.length).toBeGreaterThan(0);
    const text = JSON.stringify(
      spans.map((s) => [s.name, s.attributes, s.status, s.events.map((e) => [e.name, e.attributes])]),
    );
    for (const value of forbidden) expect(text, value).not.toContain(value);
    expect(text).not.toContain("body");
  });
});
