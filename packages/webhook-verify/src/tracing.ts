// OpenTelemetry spans of a webhook delivery: one SERVER span per request (continuing the sender's trace when a
// `traceparent` arrives), child spans for the deduplication store or inbox call, and a span for the handler's run.
// @opentelemetry/api is an optional peer, imported once on the first delivery when the application has it, together
// with tracing-spans.ts (a chunk of its own in a bundle); without it, or without a registered provider, every
// delivery gets the no-op trace below.
import type { Tracer } from "@opentelemetry/api";
import type { WebhookHeaders } from "./headers.js";
import type { DeliveryTrace, OtelApi } from "./trace-types.js";

type Spans = typeof import("./tracing-spans.js");

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

let loadingSpans: Promise<Spans> | undefined;

/** The span code, loaded once, only when the API is there. */
function loadSpans(): Promise<Spans> {
  loadingSpans ??= import("./tracing-spans.js");
  return loadingSpans;
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
  let spans: Spans | undefined;
  return async (method, headers) => {
    const api = await loadApi();
    if (api === undefined) return NO_TRACE;
    // Awaited once: later deliveries start their spans without another turn of the event loop.
    spans ??= await loadSpans();
    const { recordingDelivery } = spans;
    tracer ??= api.trace.getTracer("@exchange-kit/webhook-verify");
    return recordingDelivery(api, tracer, method, headers) ?? NO_TRACE;
  };
}
