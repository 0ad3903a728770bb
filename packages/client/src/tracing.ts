// OpenTelemetry spans of a call: one span per operation call (`exchange.<operationId>`, kind CLIENT) with a child
// span per HTTP attempt, named and attributed after the HTTP client conventions (tracing-spans.ts makes them).
// @opentelemetry/api is an optional peer: it is imported once, on the first call, and only if the application has
// it, together with tracing-spans.ts (a chunk of its own in the bundle); without it (or with `tracing: false`) every
// call gets the no-op trace below.
import type { Recorder } from "./tracing-spans.js";
import type { AttemptTrace, CallTrace, OtelApi, TracedCall } from "./trace-types.js";
import type { TracingSettings } from "./transport-types.js";
import { VERSION } from "./version.js";

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

/** The recorder of a client's spans, or null without the API. The span code is loaded only when the API is there. */
async function loadRecorder(settings: TracingSettings): Promise<Recorder | null> {
  const api = await loadApi();
  if (api === undefined) return null;
  const { Recorder } = await import("./tracing-spans.js");
  return new Recorder(api, api.trace.getTracer("@exchange-kit/client", VERSION), settings.propagate);
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
  let loaded: Recorder | null | undefined;
  const start = (call: TracedCall): CallTrace => loaded?.startCall(call) ?? NO_TRACE;
  // Once the import has settled, a call's trace starts synchronously: no await per call.
  return (call) => {
    if (loaded !== undefined) return start(call);
    return loadRecorder(settings).then((recorder) => {
      loaded = recorder;
      return start(call);
    });
  };
}
