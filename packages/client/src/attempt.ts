// One attempt of a call: signed with a fresh timestamp, sent under its time limit, read and classified.
import { classifyAnswer } from "./answer.js";
import {
  ExchangeAbortError,
  type ExchangeError,
  ExchangeNetworkError,
  ExchangeTimeoutError,
  type OperationRef,
  type Outcome,
} from "./errors.js";
import { unreachableHint } from "./error-hints.js";
import { type Failed, oversize } from "./failed-attempt.js";
import { BodyTooLarge, readLimitedText } from "./read-limited-body.js";
import type { Redactor } from "./redact.js";
import { refuseRedirect } from "./redirect.js";
import { notSent } from "./retry-safety.js";
import { signatureHeaders } from "./signing-middleware.js";
import type { AttemptTrace, CallTrace, TracedCall } from "./trace-types.js";
import type { AnswerAs, Call, RequestOptions, Sent, TransportSettings } from "./transport-types.js";

/** The client-wide parts every call uses. */
export interface Pipeline {
  readonly settings: TransportSettings;
  readonly redact: Redactor;
  readonly fetch: (url: string, init: RequestInit) => Promise<Response>;
  /** Starts a call's trace (NO_TRACE unless OpenTelemetry records). */
  readonly startTrace: (call: TracedCall) => Promise<CallTrace> | CallTrace;
}

/** A call prepared once: what every attempt sends, and the limits it runs under. */
export interface PreparedCall {
  readonly call: Call;
  readonly operation: OperationRef;
  /** The operationId, or the path for client.request: how log lines name the call. */
  readonly name: string;
  readonly url: string;
  /** The exact text signed and sent. */
  readonly body: string | undefined;
  readonly options: RequestOptions;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  /** The absolute deadline (Infinity without one), and the whole deadline in ms, for its error. */
  readonly deadlineAt: number;
  readonly deadlineMs: number;
  /** client.raw: the call resolves to the answer as received, made by this. */
  readonly answerAs: AnswerAs | undefined;
}

/** An attempt's time limit: the signal to pass to fetch, and which limit fired, if one did. */
interface AttemptLimit {
  readonly signal: AbortSignal | undefined;
  readonly expired: "attempt" | "deadline" | undefined;
  stop(): void;
}

const MAX_TIMER_MS = 2 ** 31 - 1;
const NO_LIMIT = { expired: undefined, stop() {} } as const;

/**
 * The attempt's time limit: timeoutMs or what is left of the deadline, whichever ends first. undici's bookkeeping
 * for a fetch signal costs more than the rest of the client together, so a signal is only made when there is a time
 * limit; without one the caller's own signal (if any) is passed as is.
 */
function startLimit(signal: AbortSignal | undefined, timeoutMs: number, remaining: number): AttemptLimit {
  const ms = Math.min(timeoutMs, remaining);
  if (ms >= MAX_TIMER_MS) return { signal, ...NO_LIMIT };
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal?.reason);
  const limit = {
    signal: controller.signal,
    expired: undefined as AttemptLimit["expired"],
    stop() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    },
  };
  const timer = setTimeout(() => {
    limit.expired = remaining <= timeoutMs ? "deadline" : "attempt";
    controller.abort();
  }, ms);
  signal?.addEventListener("abort", onAbort);
  return limit;
}

/**
 * No answer: the caller's abort and the deadline end the call (thrown); an attempt timeout or a network error may
 * be retried (an unsafe call only when nothing was sent).
 */
function noAnswer(pipe: Pipeline, p: PreparedCall, limit: AttemptLimit, cause: unknown, attemptNo: number): Failed {
  const { operation, options } = p;
  const final = { attempts: attemptNo };
  if (options.signal?.aborted) throw new ExchangeAbortError(options.signal.reason, operation, final);
  if (limit.expired === "deadline") throw new ExchangeTimeoutError("deadline", p.deadlineMs, operation, final);
  const timedOut = limit.expired === "attempt";
  const notProcessed = !timedOut && notSent(cause);
  const hint = timedOut ? undefined : unreachableHint(pipe.settings.baseUrl, !notProcessed);
  const make = timedOut
    ? (outcome: Outcome): ExchangeError => new ExchangeTimeoutError("attempt", p.timeoutMs, operation, outcome)
    : (outcome: Outcome): ExchangeError => new ExchangeNetworkError(cause, operation, pipe.redact.text, outcome, hint);
  return { retryable: true, notProcessed, make };
}

/** The attempt's headers: the User-Agent, the caller's (not signed), and a signature made now. */
async function signedHeaders(pipe: Pipeline, p: PreparedCall): Promise<Record<string, string>> {
  const { apiKey, apiSecret, dangerouslyAllowBrowser, userAgent } = pipe.settings;
  // Every attempt is signed afresh, so a retry never carries a stale timestamp.
  const signed = await signatureHeaders(apiKey, apiSecret, p.body, dangerouslyAllowBrowser);
  return { "User-Agent": userAgent, ...p.options.headers, ...signed };
}

/** Sends the attempt and reads its answer, with the hooks and debug lines around it. */
async function exchange(
  pipe: Pipeline,
  p: PreparedCall,
  attemptNo: number,
  headers: Record<string, string>,
  limit: AttemptLimit,
): Promise<Sent | Failed> {
  const { settings, redact } = pipe;
  const { hooks, log } = settings;
  const { operation, url, body } = p;
  const { method } = operation;
  if (hooks.onRequest) await hooks.onRequest({ operation, url, method, headers, body, attempt: attemptNo });
  if (log.debug) log.write("debug", `exchange: ${method} ${url} (attempt ${attemptNo})`, { headers });
  const sentAt = Date.now();
  let response: Response;
  try {
    // Never "follow": it would send the signed headers (and a 307/308 the body) wherever Location points.
    response = await pipe.fetch(url, { method, headers, body, signal: limit.signal, redirect: "manual" });
  } catch (cause) {
    return noAnswer(pipe, p, limit, cause, attemptNo);
  }
  if (hooks.onResponse) {
    const durationMs = Date.now() - sentAt;
    await hooks.onResponse({ operation, url, method, response, attempt: attemptNo, durationMs });
  }
  refuseRedirect(response, url, operation, attemptNo, redact.text);
  let text: string;
  try {
    text = await readLimitedText(response, settings.maxResponseBytes);
  } catch (cause) {
    if (!(cause instanceof BodyTooLarge)) return noAnswer(pipe, p, limit, cause, attemptNo);
    return oversize(cause, response, operation, settings.maxResponseBytes, redact);
  }
  if (log.debug) log.write("debug", `exchange: ${response.status} from ${method} ${url} in ${Date.now() - sentAt} ms`);
  return classifyAnswer(response, text, operation, redact, p.answerAs);
}

/**
 * One attempt: signed with a fresh timestamp, sent, read, classified. Resolves to the call's result or to a failure
 * a retry may fix; the caller's abort, the deadline, a redirect and a hook's own error are thrown and end the call.
 */
export async function attempt(
  pipe: Pipeline,
  p: PreparedCall,
  attemptNo: number,
  trace: AttemptTrace,
): Promise<Sent | Failed> {
  const { operation, options } = p;
  const { signal } = options;
  const final = { attempts: attemptNo };
  if (signal?.aborted) throw new ExchangeAbortError(signal.reason, operation, final);
  const remaining = p.deadlineAt - Date.now();
  if (remaining <= 0) throw new ExchangeTimeoutError("deadline", p.deadlineMs, operation, final);
  const headers = await signedHeaders(pipe, p);
  trace.inject(headers);
  const limit = startLimit(signal, p.timeoutMs, remaining);
  try {
    return await exchange(pipe, p, attemptNo, headers, limit);
  } finally {
    limit.stop();
  }
}
