// The listener's spans with --otel: one SERVER span per delivery, continuing the sandbox's `traceparent` (its
// delivery attempt), and under it one CLIENT span for the forward, whose context is the `traceparent` the
// receiver gets, so client → sandbox → listener → receiver is one trace. Without --otel the listener makes no
// span and forwards the sandbox's `traceparent` untouched. Spans carry statuses and whether the signature
// verified: never a header value, a body or an error message.
import type { IncomingHttpHeaders } from "node:http";
import type { Tracer } from "@opentelemetry/api";

type OtelApi = typeof import("@opentelemetry/api");

/** What the forward answered: the receiver's status (502 when none came) and why it failed. */
export interface ForwardResult {
  status: number;
  failure?: string;
}

/** Forwards with `headers` (the trace's own `traceparent` set in them when tracing). */
export type Forward = (headers: Record<string, string>) => Promise<ForwardResult>;

/** Runs a delivery's forward, recording its spans when tracing. */
export type TraceDelivery = (
  incoming: IncomingHttpHeaders,
  outgoing: Record<string, string>,
  verified: boolean,
  forward: Forward,
) => Promise<ForwardResult>;

/** No spans: the forward as it is. */
export const untracedDelivery: TraceDelivery = (_incoming, outgoing, _verified, forward) => forward(outgoing);

const incomingGetter = {
  get: (headers: IncomingHttpHeaders, key: string) => {
    const value = headers[key];
    return Array.isArray(value) ? value.join(",") : value;
  },
  keys: (headers: IncomingHttpHeaders) => Object.keys(headers),
};

const outgoingSetter = {
  set: (headers: Record<string, string>, key: string, value: string) => {
    headers[key] = value;
  },
};

/**
 * Deliveries traced with the registered provider (the SDK that --otel started).
 *
 * @example
 * const trace = tracedDelivery(await import("@opentelemetry/api"));
 * const { status } = await trace(req.headers, headers, true, (h) => forward(target, h, body));
 */
export function tracedDelivery(api: OtelApi, tracer: Tracer = api.trace.getTracer("@exchange-kit/cli")): TraceDelivery {
  return async (incoming, outgoing, verified, forward) => {
    const parent = api.propagation.extract(api.ROOT_CONTEXT, incoming, incomingGetter);
    const attributes = { "http.request.method": "POST", "exchange.webhook.verified": verified };
    const server = tracer.startSpan("exchange.listen.receive", { kind: api.SpanKind.SERVER, attributes }, parent);
    const inServer = api.trace.setSpan(parent, server);
    const client = tracer.startSpan("exchange.listen.forward", { kind: api.SpanKind.CLIENT }, inServer);
    const headers = { ...outgoing };
    api.propagation.inject(api.trace.setSpan(inServer, client), headers, outgoingSetter);
    const result = await forward(headers);
    client.setAttribute("http.response.status_code", result.status);
    if (result.failure !== undefined) {
      client.setAttribute("error.type", "forward_failed");
      client.setStatus({ code: api.SpanStatusCode.ERROR });
    }
    client.end();
    const answered = result.status >= 200 && result.status < 300 ? result.status : 502;
    server.setAttribute("http.response.status_code", answered);
    if (answered >= 500) server.setStatus({ code: api.SpanStatusCode.ERROR });
    server.end();
    return result;
  };
}
