// One trace from the client through the sandbox to the receiver, recorded by the real OpenTelemetry SDK: the
// client's call and attempt spans, the sandbox's server span (continuing the attempt's traceparent), the automatic
// steps the request scheduled, the webhook delivery attempt, and the receiver's span (webhook-verify, continuing
// the delivery's traceparent).
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { context, propagation, SpanKind, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { createExchangeClient } from "@exchange-kit/client";
import { createNodeWebhookHandler } from "@exchange-kit/webhook-verify/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { arm } from "./faults/fault-helpers.js";
import { Api, kycBody, payoutQuotationBody, startSandbox, unique, waitFor } from "./helpers.js";
import { traceSvg } from "./support/trace-picture.js";

/** The guide's picture of this trace, rewritten by every run of this test. */
const picture = new URL("../../../docs/guides/images/payout-trace.svg", import.meta.url);

const exporter = new InMemorySpanExporter();

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

const finished = () => exporter.getFinishedSpans();
const byId = (id: string | undefined) => finished().find((s) => s.spanContext().spanId === id);
/** The chain of span names from `span` up to the root of its trace. */
function ancestry(span: ReadableSpan): string[] {
  const names = [span.name];
  for (let at = byId(span.parentSpanContext?.spanId); at; at = byId(at.parentSpanContext?.spanId)) names.push(at.name);
  return names;
}

async function receiverFor(apiKey: string, apiSecret: string, seen: string[]) {
  const handler = createNodeWebhookHandler({ apiKey, apiSecret }, (event) => {
    seen.push(`${event.type} ${event.event}`);
  });
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, server };
}

describe("one payout, traced end to end", () => {
  it("puts the initiate, its automatic steps, the webhook delivery and the receiver's span in one trace", async () => {
    const sandbox = await startSandbox();
    const org = sandbox.organizations[0]!;
    const seen: string[] = [];
    const receiver = await receiverFor(org.apiKey, org.apiSecret, seen);
    try {
      const client = createExchangeClient({ baseUrl: sandbox.url, apiKey: org.apiKey, apiSecret: org.apiSecret });
      await client.organization.registerWebhook({ webhook_url: receiver.url });
      const customer = await client.customers.create({
        client_reference_id: unique("c"),
        full_name: "Asha Verma",
        alpha_3_country_code: "IND",
      } as never);
      await client.kyc.addData(kycBody(customer.id) as never);
      await waitFor(async () => (await client.customers.get(customer.id)).status === "VERIFIED", "VERIFIED");
      const bank = await client.banks.create({
        customer_id: customer.id,
        bank_account_type: "UPI",
        identifiers: { vpa: "asha@okhdfc" },
      } as never);
      await waitFor(
        async () => (await client.banks.get(customer.id, bank.id)).bank_account_status === "VERIFIED",
        "bank VERIFIED",
      );
      const quote = await client.payouts.createQuotation(
        payoutQuotationBody(customer.id, bank.id, { payment_method: "UPI" }) as never,
      );
      // The service is briefly unavailable for the initiate: one 503 the client retries after a history lookup.
      await arm(new Api(sandbox), { operation: "initiatePayout", fault: "HTTP_503", times: 1 });
      exporter.reset();
      const payout = await client.payouts.initiate({ quotation_id: quote.id, client_reference_id: unique("po") });
      await waitFor(() => seen.includes("PAYOUT SUCCESS"), "the PAYOUT SUCCESS webhook handled");
      await sandbox.deliveriesSettled();
      await waitFor(() => finished().some((s) => s.name === "exchange.webhook.handle"), "the handler's span");

      const [call] = finished().filter((s) => s.name === "exchange.initiatePayout");
      expect(call).toBeDefined();
      const traceId = call!.spanContext().traceId;
      const server = finished().find(
        (s) =>
          s.name === "POST /pos/api/v1/payout/initiate" &&
          s.kind === SpanKind.SERVER &&
          s.attributes["http.response.status_code"] === 200,
      )!;
      expect(server.kind).toBe(SpanKind.SERVER);
      expect(server.attributes).toMatchObject({
        "exchange.operation_id": "initiatePayout",
        "http.response.status_code": 200,
      });
      expect(ancestry(server)).toEqual([
        "POST /pos/api/v1/payout/initiate",
        "POST /pos/api/v1/payout/initiate",
        "exchange.initiatePayout",
      ]);
      const delivery = finished().find(
        (s) =>
          s.name === "exchange.webhook.deliver" &&
          s.attributes["exchange.webhook.id"] === (payout as { id: string }).id,
      )!;
      expect(delivery.attributes).toMatchObject({
        "exchange.webhook.event_type": "PAYOUT",
        "http.response.status_code": 200,
      });
      const received = finished().find(
        (s) => s.name === "exchange.webhook.receive" && s.attributes["exchange.webhook.event"] === "SUCCESS",
      )!;
      for (const span of [server, delivery, received]) expect(span.spanContext().traceId).toBe(traceId);
      expect(ancestry(received).slice(0, 2)).toEqual(["exchange.webhook.receive", "exchange.webhook.deliver"]);
      expect(ancestry(received)).toContain("exchange.sandbox.step");
      expect(ancestry(received).at(-1)).toBe("exchange.initiatePayout");
      const attempts = finished().filter(
        (s) =>
          s.parentSpanContext?.spanId === call!.spanContext().spanId && s.attributes["exchange.attempt"] !== undefined,
      );
      expect(attempts.map((s) => s.attributes["http.response.status_code"])).toEqual([503, 200]);
      expect(call!.events.map((e) => e.attributes?.["exchange.lookup.result"])).toEqual(["not_found"]);
      const servers = finished().filter(
        (s) => s.name === "POST /pos/api/v1/payout/initiate" && s.kind === SpanKind.SERVER,
      );
      expect(servers.map((s) => s.attributes["exchange.sandbox.fault"])).toEqual(["HTTP_503", undefined]);

      const ofTrace = finished().filter((s) => s.spanContext().traceId === traceId);
      mkdirSync(new URL(".", picture), { recursive: true });
      writeFileSync(
        picture,
        traceSvg(ofTrace, "payouts.initiate: one 503, the history lookup, the retry, the webhook"),
      );
    } finally {
      await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
    }
  });
});
