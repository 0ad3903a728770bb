// The spans of a delivery when OpenTelemetry records (see tracing.ts): loaded with @opentelemetry/api on the first
// delivery, so a bundle's main chunk does not carry them.
//
// Only ids, the event's type and name, outcomes and codes go into a span: never the body, the metadata (names,
// emails, account numbers live there), a header value, a signature or an error message.
import type { Attributes, Context, Span, Tracer } from "@opentelemetry/api";
import type { ReceivedWebhookEvent } from "./events.js";
import type { WebhookHeaders } from "./headers.js";
import type { DeliveryOutcome, DeliveryTrace, OtelApi } from "./trace-types.js";

/** Reads a header from any of the shapes WebhookHeaders allows, for the propagator. */
const headerGetter = {
  get(headers: WebhookHeaders, key: string): string | undefined {
    const value =
      typeof (headers as Headers).get === "function"
        ? (headers as Headers).get(key)
        : (headers as Record<string, unknown>)[key];
    if (Array.isArray(value)) return value.join(",");
    return typeof value === "string" ? value : undefined;
  },
  keys(headers: WebhookHeaders): string[] {
    if (typeof (headers as Headers).forEach !== "function") return Object.keys(headers);
    const names: string[] = [];
    (headers as Headers).forEach((_value, name) => {
      names.push(name);
    });
    return names;
  },
};

function eventAttributes(event: ReceivedWebhookEvent): Attributes {
  return {
    "exchange.webhook.event_type": event.type,
    "exchange.webhook.event": event.event,
    "exchange.webhook.id": event.id,
    "exchange.webhook.known": event.known,
  };
}

function failWith(api: OtelApi, span: Span, type: string): void {
  span.setAttribute("error.type", type);
  span.setStatus({ code: api.SpanStatusCode.ERROR, message: type });
}

/**
 * The spans of one delivery. A class, not an object of closures: one object per delivery instead of five, on a path
 * where the rest of the work is a few microseconds.
 */
class RecordingDelivery implements DeliveryTrace {
  private readonly own: Context;
  private event: Attributes = {};

  constructor(
    private readonly api: OtelApi,
    private readonly tracer: Tracer,
    private readonly span: Span,
    parent: Context,
  ) {
    this.own = api.trace.setSpan(parent, span);
  }

  verified(verified: ReceivedWebhookEvent): void {
    this.event = eventAttributes(verified);
    this.span.setAttributes(this.event);
  }

  store<T>(name: string, call: () => Promise<T>): Promise<T> {
    return this.inSpan(name, call);
  }

  handle<T>(run: () => Promise<T>): Promise<T> {
    return this.inSpan("exchange.webhook.handle", run);
  }

  answered(status: number, outcome: DeliveryOutcome, code?: string): void {
    const { span } = this;
    span.setAttributes({ "http.response.status_code": status, "exchange.webhook.outcome": outcome });
    if (code !== undefined) span.setAttribute("exchange.webhook.code", code);
    if (outcome === "rejected" || outcome === "unavailable") failWith(this.api, span, code ?? String(status));
    span.end();
  }

  /** Runs `run` under a child span named `name`, carrying the event's attributes. */
  private async inSpan<T>(name: string, run: () => Promise<T>): Promise<T> {
    const { api } = this;
    const span = this.tracer.startSpan(name, { attributes: this.event }, this.own);
    try {
      return await api.context.with(api.trace.setSpan(this.own, span), run);
    } catch (error) {
      failWith(api, span, error instanceof Error ? error.name : "_OTHER");
      throw error;
    } finally {
      span.end();
    }
  }
}

/**
 * The delivery's spans, or undefined when the provider does not record (none registered: the API's no-op span).
 *
 * @example
 * const trace = recordingDelivery(api, api.trace.getTracer("app"), "POST", request.headers) ?? NO_TRACE;
 */
export function recordingDelivery(
  api: OtelApi,
  tracer: Tracer,
  method: string | undefined,
  headers: WebhookHeaders,
): DeliveryTrace | undefined {
  const parent = api.propagation.extract(api.context.active(), headers, headerGetter);
  const attributes = { "http.request.method": method ?? "_OTHER" };
  const span = tracer.startSpan("exchange.webhook.receive", { kind: api.SpanKind.SERVER, attributes }, parent);
  if (!api.trace.isSpanContextValid(span.spanContext())) return undefined;
  return new RecordingDelivery(api, tracer, span, parent);
}
