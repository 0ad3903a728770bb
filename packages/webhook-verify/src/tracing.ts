// OpenTelemetry spans of a webhook delivery: one SERVER span per request (continuing the sender's trace when a
// `traceparent` arrives), child spans for the deduplication store or inbox call, and a span for the handler's run.
// @opentelemetry/api is an optional peer, imported once on the first delivery when the application has it; without
// it, or without a registered provider, every delivery gets the no-op trace below.
//
// Only ids, the event's type and name, outcomes and codes go into a span: never the body, the metadata (names,
// emails, account numbers live there), a header value, a signature or an error message.
import type { Attributes, Context, Span, Tracer } from "@opentelemetry/api";
import type { ReceivedWebhookEvent } from "./events.js";
import type { WebhookHeaders } from "./headers.js";

type OtelApi = typeof import("@opentelemetry/api");

/** What the delivery came to, as `exchange.webhook.outcome`. */
export type DeliveryOutcome = "accepted" | "duplicate" | "rejected" | "in_progress" | "unavailable";

/** The trace of one delivery. */
export interface DeliveryTrace {
  /** The verified event: its type, name and id. */
  verified(event: ReceivedWebhookEvent): void;
  /** Runs a store call (dedup claim, inbox accept) under a child span named `name`. */
  store<T>(name: string, call: () => Promise<T>): Promise<T>;
  /** Runs the handler under its own span (a child of the delivery's, though it runs after the answer). */
  handle<T>(run: () => Promise<T>): Promise<T>;
  /** The answer: its status, the outcome and the rejection or unavailability code. */
  answered(status: number, outcome: DeliveryOutcome, code?: string): void;
}

const NO_TRACE: DeliveryTrace = {
  verified() {},
  store: (_name, call) => call(),
  handle: (run) => run(),
  answered() {},
};

const OTEL_API = "@opentelemetry/api";
let loadingApi: Promise<OtelApi | undefined> | undefined;

/** @opentelemetry/api if the application has it, loaded once; undefined when it is not installed. */
function loadApi(): Promise<OtelApi | undefined> {
  // A specifier in a variable, with the bundlers' ignore comments: an optional peer is not resolved at build time.
  loadingApi ??= import(/* webpackIgnore: true */ /* @vite-ignore */ OTEL_API).then(
    (api: OtelApi) => api,
    () => undefined,
  );
  return loadingApi;
}

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

function recordingDelivery(api: OtelApi, tracer: Tracer, method: string | undefined, headers: WebhookHeaders) {
  const parent = api.propagation.extract(api.context.active(), headers, headerGetter);
  const attributes = { "http.request.method": method ?? "_OTHER" };
  const span = tracer.startSpan("exchange.webhook.receive", { kind: api.SpanKind.SERVER, attributes }, parent);
  if (!api.trace.isSpanContextValid(span.spanContext())) return NO_TRACE;
  return new RecordingDelivery(api, tracer, span, parent);
}

/**
 * Makes the function that starts a delivery's trace: the no-op trace when @opentelemetry/api is absent or no
 * provider is registered.
 *
 * @example
 * const startTrace = createDeliveryTracing(true);
 * const trace = await startTrace("POST", request.headers);
 */
export function createDeliveryTracing(
  enabled = true,
): (method: string | undefined, headers: WebhookHeaders) => Promise<DeliveryTrace> {
  if (!enabled) return async () => NO_TRACE;
  let tracer: Tracer | undefined;
  return async (method, headers) => {
    const api = await loadApi();
    if (api === undefined) return NO_TRACE;
    tracer ??= api.trace.getTracer("@exchange-kit/webhook-verify");
    return recordingDelivery(api, tracer, method, headers);
  };
}
