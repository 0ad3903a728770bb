// OpenTelemetry in the sandbox: a SERVER span per API request (continuing the client's trace when a `traceparent`
// arrives) and a span per webhook delivery attempt, a child of the request that emitted the event, whose
// `traceparent` goes to the receiver, so client → sandbox → receiver is one trace. @opentelemetry/api is an optional
// peer, imported once at start when the hosting process has it; spans are recorded only when that process
// registered a tracer provider (a test, or an application embedding createSandbox).
//
// "The request that emitted this event" is the request whose handler is running: the handler runs in an async
// context (AsyncLocalStorage) that carries it across every await, and `causeNow()` reads it, with no OpenTelemetry
// context manager needed.
import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingHttpHeaders } from "node:http";
import type { Context, Span, Tracer } from "@opentelemetry/api";
import type { StepTrace, StepTracing } from "../domain/ports.js";
import type { RequestTrace } from "../http/stages.js";

type OtelApi = typeof import("@opentelemetry/api");

let otel: { api: OtelApi; tracer: Tracer } | undefined;
let loading: Promise<void> | undefined;
/** The context of the request (or step) whose work is running, across its awaits. */
const dispatching = new AsyncLocalStorage<Context>();

const OTEL_API = "@opentelemetry/api";

/** Loads @opentelemetry/api once if the process has it; requests before it settles are not traced. */
export function loadTracing(): Promise<void> {
  loading ??= import(OTEL_API).then(
    (api: OtelApi) => {
      otel = { api, tracer: api.trace.getTracer("@exchange-kit/sandbox") };
    },
    () => undefined,
  );
  return loading;
}

/** Runs `work` (and whatever it awaits) with `cause` as the cause of what it emits and schedules. */
function asCause<T>(cause: Context, work: () => T): T {
  return dispatching.run(cause, work);
}

/** A request's span and what the answer adds to it. */
const NO_REQUEST: RequestTrace = { dispatch: (work) => work(), end() {} };

const headerGetter = {
  get: (headers: IncomingHttpHeaders, key: string) => {
    const value = headers[key];
    return Array.isArray(value) ? value.join(",") : value;
  },
  keys: (headers: IncomingHttpHeaders) => Object.keys(headers),
};

/**
 * Starts the span of a routed request: `<METHOD> <path template>`, never the path with its ids.
 *
 * @example
 * const trace = traceRequest("GET", req.headers, "/cms/api/v1/customer/{customer_id}", "getCustomer");
 */
export function traceRequest(
  method: string,
  headers: IncomingHttpHeaders,
  template: string,
  operationId: string | undefined,
): RequestTrace {
  if (otel === undefined) return NO_REQUEST;
  const { api, tracer } = otel;
  const parent = api.propagation.extract(api.context.active(), headers, headerGetter);
  const attributes = {
    "http.request.method": method,
    "http.route": template,
    ...(operationId === undefined ? {} : { "exchange.operation_id": operationId }),
  };
  const span = tracer.startSpan(`${method} ${template}`, { kind: api.SpanKind.SERVER, attributes }, parent);
  if (!api.trace.isSpanContextValid(span.spanContext())) return NO_REQUEST;
  const own = api.trace.setSpan(parent, span);
  return {
    dispatch: (work) => asCause(own, work),
    end(status, errCode, fault) {
      if (status !== undefined) span.setAttribute("http.response.status_code", status);
      if (errCode !== undefined) span.setAttribute("exchange.err_code", errCode);
      if (fault !== undefined) span.setAttribute("exchange.sandbox.fault", fault);
      const type = errorTypeOf(status, errCode);
      if (type !== undefined) span.setAttribute("error.type", type);
      // A 4xx is the client's mistake, not the server's failure (HTTP server conventions).
      if (status === undefined || status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR, message: type });
      span.end();
    },
  };
}

/** `error.type` of an answer: its err_code, else its status from 500 up, else NO_ANSWER when none was sent. */
export function errorTypeOf(status: number | undefined, errCode: string | undefined): string | undefined {
  if (errCode !== undefined) return errCode;
  if (status === undefined) return "NO_ANSWER";
  return status >= 500 ? String(status) : undefined;
}

/** The request being dispatched now, if any: kept with an event so its deliveries join that request's trace. */
export function causeNow(): Context | undefined {
  return dispatching.getStore();
}

/** What a delivery attempt's span records about the event (ids and names only: never the body or metadata). */
export interface DeliveredEvent {
  readonly type: string;
  readonly event: string;
  readonly id: string;
}

/** The span of one delivery attempt. */
export interface DeliveryAttemptTrace {
  /** Adds `traceparent` for this attempt to the delivery's headers. */
  inject(headers: Record<string, string>): void;
  end(statusCode: number | null, failed: boolean): void;
}

const NO_ATTEMPT: DeliveryAttemptTrace = { inject() {}, end() {} };

/** Starts a delivery attempt's span: a child of the request that emitted the event, or a new trace. */
export function traceDeliveryAttempt(
  cause: Context | undefined,
  event: DeliveredEvent,
  attempt: number,
  reason: string,
): DeliveryAttemptTrace {
  if (otel === undefined) return NO_ATTEMPT;
  const { api, tracer } = otel;
  const attributes = {
    "http.request.method": "POST",
    "exchange.webhook.event_type": event.type,
    "exchange.webhook.event": event.event,
    "exchange.webhook.id": event.id,
    "exchange.webhook.attempt": attempt,
    "exchange.webhook.reason": reason,
  };
  const parent = cause ?? api.ROOT_CONTEXT;
  const span: Span = tracer.startSpan("exchange.webhook.deliver", { kind: api.SpanKind.CLIENT, attributes }, parent);
  if (!api.trace.isSpanContextValid(span.spanContext())) return NO_ATTEMPT;
  const own = api.trace.setSpan(parent, span);
  return {
    inject: (headers) => api.propagation.inject(own, headers),
    end(statusCode, failed) {
      if (statusCode !== null) span.setAttribute("http.response.status_code", statusCode);
      if (failed) {
        const type = statusCode === null ? "NO_ANSWER" : String(statusCode);
        span.setAttribute("error.type", type);
        span.setStatus({ code: api.SpanStatusCode.ERROR, message: type });
      }
      span.end();
    },
  };
}

/** No span (tracing is off, or nothing traced scheduled the step): the step runs as it is. */
const NO_STEP: StepTrace = { run: (work) => work(), end() {} };

/**
 * Starts an automatic step's span (`exchange.sandbox.step`): a child of what scheduled it (the request that
 * created the record, or the previous step), so a record's whole progress sits in the trace of the request.
 */
export function traceStep(cause: Context | undefined, kind: string, id: string): StepTrace {
  if (otel === undefined || cause === undefined) return NO_STEP;
  const { api, tracer } = otel;
  const attributes = { "exchange.sandbox.record_kind": kind, "exchange.sandbox.record_id": id };
  const span = tracer.startSpan("exchange.sandbox.step", { kind: api.SpanKind.INTERNAL, attributes }, cause);
  if (!api.trace.isSpanContextValid(span.spanContext())) return NO_STEP;
  const own = api.trace.setSpan(cause, span);
  return {
    run: (work) => asCause(own, work),
    end(failed) {
      if (failed) span.setStatus({ code: api.SpanStatusCode.ERROR, message: "STEP_FAILED" });
      span.end();
    },
  };
}

/** Automatic steps traced as the domain asks (domain/ports.ts): the composition root hands this to the domain. */
export const stepTracing: StepTracing = {
  cause: causeNow,
  step: (cause, kind, id) => traceStep(cause as Context | undefined, kind, id),
};
