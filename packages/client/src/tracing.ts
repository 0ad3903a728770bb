// OpenTelemetry spans of a call: one span per operation call (`exchange.<operationId>`, kind CLIENT) with a child
// span per HTTP attempt, named and attributed after the HTTP client conventions. @opentelemetry/api is an optional
// peer: it is imported once, on the first call, and only if the application has it; without it (or with
// `tracing: false`) every call gets the no-op trace below and costs one resolved await.
//
// What goes into a span is chosen here and nowhere else: ids, the operation, statuses and err_codes; never a body,
// a header value, the URL's query, an error message (the service's messages can quote what was sent) or a secret.
import type { Attributes, Context, Span, Tracer } from "@opentelemetry/api";
import type { ExchangeError, OperationRef } from "./errors.js";
import type { IdempotencyClass } from "./spec.js";
import type { TracingSettings } from "./transport-types.js";
import { VERSION } from "./version.js";

type OtelApi = typeof import("@opentelemetry/api");

/** The trace of one attempt: its span, what the attempt sends under it, and how it ended. */
export interface AttemptTrace {
  /** Runs the attempt with its span as the active one (so an instrumented fetch nests under it). */
  run<T>(send: () => Promise<T>): Promise<T>;
  /** Adds `traceparent` (and `tracestate`) for this attempt to the request's headers, if propagation is on. */
  inject(headers: Record<string, string>): void;
  /**
   * The answer's status and err_code; for a failed attempt, its error (built only when the span records), whose
   * type names the failure when there was no answer (a timeout, a network error).
   */
  answered(status: number | undefined, errCode: string | undefined, failure?: () => ExchangeError): void;
  /** The wait before the next attempt, decided after this one failed. */
  retryAfter(ms: number): void;
  end(thrown?: unknown): void;
}

/** The trace of one call: its span and the attempts under it. */
export interface CallTrace {
  attempt(attemptNo: number): AttemptTrace;
  /** Runs `work` (the history lookup's own calls) with the call's span active, so their spans nest under it. */
  within<T>(work: () => Promise<T>): Promise<T>;
  /**
   * The lookup by client_reference_id of what an earlier attempt may have made (initiate's history, the customer
   * list for createCustomer): found it, or not.
   */
  lookedUp(found: boolean): void;
  /** The call ended on how an earlier attempt's success explains its last answer (a delete that met not-found). */
  resolved(outcome: "deleted_by_earlier_attempt"): void;
  end(thrown?: unknown): void;
}

const NO_ATTEMPT: AttemptTrace = {
  run: (send) => send(),
  inject() {},
  answered() {},
  retryAfter() {},
  end() {},
};

/** The trace of a call when nothing records it. */
export const NO_TRACE: CallTrace = {
  attempt: () => NO_ATTEMPT,
  within: (work) => work(),
  lookedUp() {},
  resolved() {},
  end() {},
};

/** What a call's trace is made from: the operation and where it is sent. */
export interface TracedCall {
  readonly operation: OperationRef;
  readonly idempotency: IdempotencyClass;
  readonly url: string;
}

const OTEL_API = "@opentelemetry/api";
let loadingApi: Promise<OtelApi | undefined> | undefined;

/** @opentelemetry/api if the application has it, loaded once; undefined when it is not installed. */
function loadApi(): Promise<OtelApi | undefined> {
  // A specifier in a variable, with the bundlers' ignore comments: an optional peer must not be resolved at build
  // time (a bundle without it would fail to build); where it cannot be imported, tracing is off.
  loadingApi ??= import(/* webpackIgnore: true */ /* @vite-ignore */ OTEL_API).then(
    (api: OtelApi) => api,
    () => undefined,
  );
  return loadingApi;
}

/** The name of a failure for `error.type`: the err_code, else the HTTP status, else the error's class. */
export function errorType(status: number | undefined, errCode: string | undefined, error?: unknown): string {
  if (errCode !== undefined) return errCode;
  if (status !== undefined && status >= 400) return String(status);
  if (error instanceof Error) return error.name;
  return "_OTHER";
}

/** Host and port of the base URL, as `server.address` and `server.port`. */
function serverOf(url: string): Attributes {
  const { hostname, port, protocol } = new URL(url);
  return { "server.address": hostname, "server.port": port === "" ? (protocol === "https:" ? 443 : 80) : Number(port) };
}

/** Fails the span with a type only: the error's message can quote the request (names, emails), so it stays out. */
function fail(span: Span, api: OtelApi, type: string): void {
  span.setAttribute("error.type", type);
  span.setStatus({ code: api.SpanStatusCode.ERROR, message: type });
}

function thrownType(thrown: unknown): string {
  const e = thrown as { errCode?: string; status?: number } | undefined;
  return errorType(e?.status, e?.errCode, thrown);
}

function attemptTrace(api: OtelApi, tracer: Tracer, parent: Context, call: TracedCall, attemptNo: number) {
  const { method, path, operationId } = call.operation;
  const attributes: Attributes = {
    "http.request.method": method,
    ...serverOf(call.url),
    "exchange.attempt": attemptNo,
    ...(operationId === undefined ? {} : { "url.template": path, "exchange.operation_id": operationId }),
  };
  const name = operationId === undefined ? method : `${method} ${path}`;
  const span = tracer.startSpan(name, { kind: api.SpanKind.CLIENT, attributes }, parent);
  const active = api.trace.setSpan(parent, span);
  return { span, active };
}

function recordingAttempt(
  api: OtelApi,
  tracer: Tracer,
  parent: Context,
  call: TracedCall,
  n: number,
  s: TracingSettings,
) {
  const { span, active } = attemptTrace(api, tracer, parent, call, n);
  let ended = false;
  const trace: AttemptTrace = {
    run: (send) => api.context.with(active, send),
    inject(headers) {
      if (s.propagate) api.propagation.inject(active, headers);
    },
    answered(status, errCode, failure) {
      if (status !== undefined) span.setAttribute("http.response.status_code", status);
      if (errCode !== undefined) span.setAttribute("exchange.err_code", errCode);
      if (failure === undefined && (status === undefined || status < 400)) return;
      const error = status === undefined && errCode === undefined ? failure?.() : undefined;
      fail(span, api, errorType(status, errCode, error));
    },
    retryAfter(ms) {
      span.setAttribute("exchange.retry_after_ms", Math.round(ms));
    },
    end(thrown) {
      if (ended) return;
      ended = true;
      if (thrown !== undefined) fail(span, api, thrownType(thrown));
      span.end();
    },
  };
  return trace;
}

function recordingCall(api: OtelApi, tracer: Tracer, call: TracedCall, settings: TracingSettings): CallTrace {
  const { operationId, path } = call.operation;
  const attributes: Attributes = {
    "exchange.idempotency": call.idempotency,
    ...(operationId === undefined ? {} : { "exchange.operation_id": operationId }),
  };
  const name = `exchange.${operationId ?? "request"}`;
  const span = tracer.startSpan(name, { kind: api.SpanKind.CLIENT, attributes });
  // No provider registered: the API's no-op span, whose context is invalid. Nothing to record or propagate.
  if (!api.trace.isSpanContextValid(span.spanContext())) return NO_TRACE;
  if (operationId === undefined) span.setAttribute("url.template", path.replace(/\/\d+(?=\/|$)/g, "/{id}"));
  const parent = api.trace.setSpan(api.context.active(), span);
  let attempts = 0;
  return {
    attempt(attemptNo) {
      attempts = attemptNo;
      return recordingAttempt(api, tracer, parent, call, attemptNo, settings);
    },
    within: (work) => api.context.with(parent, work),
    lookedUp(found) {
      span.addEvent("exchange.history_lookup", { "exchange.lookup.result": found ? "found" : "not_found" });
    },
    resolved(outcome) {
      span.addEvent("exchange.outcome_resolved", { "exchange.outcome": outcome });
    },
    end(thrown) {
      span.setAttribute("exchange.attempts", attempts);
      if (thrown !== undefined) {
        const e = thrown as { errCode?: string };
        if (typeof e?.errCode === "string") span.setAttribute("exchange.err_code", e.errCode);
        fail(span, api, thrownType(thrown));
      }
      span.end();
    },
  };
}

/**
 * Makes the function that starts a call's trace. With tracing off, or without @opentelemetry/api, or with a
 * provider that does not record, calls get NO_TRACE.
 *
 * @example
 * const startTrace = createTracing({ enabled: true, propagate: true });
 * const trace = await startTrace({ operation, idempotency: "safe", url });
 */
export function createTracing(settings: TracingSettings): (call: TracedCall) => Promise<CallTrace> | CallTrace {
  if (!settings.enabled) return () => NO_TRACE;
  let loaded: { api: OtelApi; tracer: Tracer } | null | undefined;
  const start = (call: TracedCall): CallTrace =>
    loaded ? recordingCall(loaded.api, loaded.tracer, call, settings) : NO_TRACE;
  // Once the import has settled, a call's trace starts synchronously: no await per call.
  return (call) => {
    if (loaded !== undefined) return start(call);
    return loadApi().then((api) => {
      loaded = api === undefined ? null : { api, tracer: api.trace.getTracer("@exchange-kit/client", VERSION) };
      return start(call);
    });
  };
}
