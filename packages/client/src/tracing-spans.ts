// The spans of a call when OpenTelemetry records (see tracing.ts): loaded with @opentelemetry/api on the first call,
// so a bundle's main chunk does not carry them. Classes rather than objects of closures: a call makes one CallSpan
// and one AttemptSpan per attempt, two objects, not two objects with a closure for each method.
//
// What goes into a span is chosen here and nowhere else: ids, the operation, statuses and err_codes; never a body,
// a header value, the URL's query, an error message (the service's messages can quote what was sent) or a secret.
import type { Attributes, Context, Span, Tracer } from "@opentelemetry/api";
import type { ExchangeError } from "./errors.js";
import { classifyRequest } from "./retry-safety.js";
import type { AttemptTrace, CallTrace, OtelApi, TracedCall } from "./trace-types.js";

/** The name of a failure for `error.type`: the err_code, else the HTTP status, else the error's class. */
export function errorType(status: number | undefined, errCode: string | undefined, error?: unknown): string {
  if (errCode !== undefined) return errCode;
  if (status !== undefined && status >= 400) return String(status);
  if (error instanceof Error) return error.name;
  return "_OTHER";
}

/** What a span says for the path of a `client.request` the spec does not know: never the path, a fixed word. */
export const UNKNOWN_PATH_TEMPLATE = "/{unknown}";

/**
 * `url.template` of a `client.request` call: the spec's path template when the method and path match an operation,
 * UNKNOWN_PATH_TEMPLATE otherwise. Never the path itself: record ids, an email or a query written into the path
 * would be exported with every span.
 *
 * @example
 * requestTemplate("GET", "/cms/api/v1/customer/3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f"); // "/cms/api/v1/customer/{customer_id}"
 * requestTemplate("GET", "/v2/people/zoya@example.com"); // "/{unknown}"
 */
export function requestTemplate(method: string, path: string): string {
  const route = classifyRequest(method, path);
  return route.operationId === undefined ? UNKNOWN_PATH_TEMPLATE : route.path;
}

/** Host and port of `url`, as `server.address` and `server.port`. */
function serverOf(url: URL): Attributes {
  const { hostname, port, protocol } = url;
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

/** The span of one attempt, active while the attempt runs. */
class AttemptSpan implements AttemptTrace {
  private ended = false;
  private readonly active: Context;

  constructor(
    private readonly recorder: Recorder,
    private readonly span: Span,
    parent: Context,
  ) {
    this.active = recorder.api.trace.setSpan(parent, span);
  }

  run<T>(send: () => Promise<T>): Promise<T> {
    return this.recorder.api.context.with(this.active, send);
  }

  inject(headers: Record<string, string>): void {
    if (this.recorder.propagate) this.recorder.api.propagation.inject(this.active, headers);
  }

  answered(status: number | undefined, errCode: string | undefined, failure?: () => ExchangeError): void {
    const { span } = this;
    if (status !== undefined) span.setAttribute("http.response.status_code", status);
    if (errCode !== undefined) span.setAttribute("exchange.err_code", errCode);
    if (failure === undefined && (status === undefined || status < 400)) return;
    const error = status === undefined && errCode === undefined ? failure?.() : undefined;
    fail(span, this.recorder.api, errorType(status, errCode, error));
  }

  retryAfter(ms: number): void {
    this.span.setAttribute("exchange.retry_after_ms", Math.round(ms));
  }

  end(thrown?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    if (thrown !== undefined) fail(this.span, this.recorder.api, thrownType(thrown));
    this.span.end();
  }
}

/** The span of one call, parent of its attempts' spans. */
class CallSpan implements CallTrace {
  private attempts = 0;
  private readonly parent: Context;
  /** The attributes every attempt of the call shares, made on the first attempt. */
  private shared: Attributes | undefined;

  constructor(
    private readonly recorder: Recorder,
    private readonly span: Span,
    private readonly call: TracedCall,
  ) {
    const { api } = recorder;
    this.parent = api.trace.setSpan(api.context.active(), span);
  }

  attempt(attemptNo: number): AttemptTrace {
    this.attempts = attemptNo;
    const { method, path, operationId } = this.call.operation;
    this.shared ??= this.recorder.attemptAttributes(this.call);
    const attributes: Attributes = { ...this.shared, "exchange.attempt": attemptNo };
    const name = operationId === undefined ? method : `${method} ${path}`;
    const { api, tracer } = this.recorder;
    const span = tracer.startSpan(name, { kind: api.SpanKind.CLIENT, attributes }, this.parent);
    return new AttemptSpan(this.recorder, span, this.parent);
  }

  within<T>(work: () => Promise<T>): Promise<T> {
    return this.recorder.api.context.with(this.parent, work);
  }

  lookedUp(found: boolean): void {
    this.span.addEvent("exchange.history_lookup", { "exchange.lookup.result": found ? "found" : "not_found" });
  }

  resolved(outcome: "deleted_by_earlier_attempt"): void {
    this.span.addEvent("exchange.outcome_resolved", { "exchange.outcome": outcome });
  }

  end(thrown?: unknown): void {
    const { span } = this;
    span.setAttribute("exchange.attempts", this.attempts);
    if (thrown !== undefined) {
      const e = thrown as { errCode?: string };
      if (typeof e?.errCode === "string") span.setAttribute("exchange.err_code", e.errCode);
      fail(span, this.recorder.api, thrownType(thrown));
    }
    span.end();
  }
}

/**
 * Starts the spans of calls with one tracer. `server.address` and `server.port` are worked out once per origin (a
 * client sends to one), not parsed from every attempt's URL.
 */
export class Recorder {
  private serverPrefix = "";
  private server: Attributes = {};

  constructor(
    readonly api: OtelApi,
    readonly tracer: Tracer,
    readonly propagate: boolean,
  ) {}

  /** The call's span, or undefined when the provider does not record (none registered: the API's no-op span). */
  startCall(call: TracedCall): CallTrace | undefined {
    const { api } = this;
    const { operationId, path } = call.operation;
    const attributes: Attributes = { "exchange.idempotency": call.idempotency };
    if (operationId !== undefined) attributes["exchange.operation_id"] = operationId;
    const name = `exchange.${operationId ?? "request"}`;
    const span = this.tracer.startSpan(name, { kind: api.SpanKind.CLIENT, attributes });
    if (!api.trace.isSpanContextValid(span.spanContext())) return undefined;
    if (operationId === undefined) span.setAttribute("url.template", requestTemplate(call.operation.method, path));
    return new CallSpan(this, span, call);
  }

  /** What every attempt span of `call` carries besides its number. */
  attemptAttributes(call: TracedCall): Attributes {
    const { method, path, operationId } = call.operation;
    const attributes: Attributes = { "http.request.method": method, ...this.serverAttributes(call.url) };
    if (operationId !== undefined) {
      attributes["url.template"] = path;
      attributes["exchange.operation_id"] = operationId;
    }
    return attributes;
  }

  private serverAttributes(url: string): Attributes {
    if (this.serverPrefix !== "" && url.startsWith(this.serverPrefix)) return this.server;
    const parsed = new URL(url);
    // The origin and the "/" after it: a longer port or host name cannot match it.
    this.serverPrefix = `${parsed.protocol}//${parsed.host}/`;
    this.server = serverOf(parsed);
    return this.server;
  }
}
