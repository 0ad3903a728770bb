// The call loop: attempt, decide, back off or end. Each call is `sendCall` and each attempt is `attempt`
// (attempt.ts); what follows a failed attempt is decideRetry's (retry-decision.ts), a pure function.
import { attempt, type Pipeline, type PreparedCall } from "./attempt.js";
import { ExchangeAbortError, ExchangeAmbiguousResultError, type ExchangeError } from "./errors.js";
import { type Failed, isFailed } from "./failed-attempt.js";
import { prepareCall } from "./prepare-call.js";
import { createRedactor } from "./redact.js";
import { sleep } from "./retry.js";
import { decideRetry, type RetryDecision } from "./retry-decision.js";
import { withEarlierSuccess } from "./earlier-success.js";
import type { AttemptTrace, CallTrace } from "./trace-types.js";
import { createTracing } from "./tracing.js";
import type { Call, Send, Sent, TransportSettings } from "./transport-types.js";

/** `run` resolving to the envelope's `data`, with `.withResponse` resolving to `{ data, response }`. */
export function unwrapData<A extends unknown[]>(run: (...args: A) => Promise<Sent>) {
  return Object.assign((...args: A) => run(...args).then((sent) => sent.data), { withResponse: run });
}

type Decision<A extends RetryDecision["action"]> = Extract<RetryDecision, { action: A }>;

/** The decision after attempt `attemptNo` failed, with the call's facts and the time now. */
function decide(
  pipe: Pipeline,
  p: PreparedCall,
  failed: Failed,
  attemptNo: number,
  lookedUp: boolean,
  uncertainBefore: boolean,
): RetryDecision {
  const { call } = p;
  const now = Date.now();
  return decideRetry(withEarlierSuccess(failed, call.operation.operationId, call.idempotency), {
    attempt: attemptNo,
    idempotency: call.idempotency,
    canLookUp: call.lookup !== undefined,
    lookedUp,
    uncertainBefore,
    noRetry: call.noRetry,
    maxRetries: p.maxRetries,
    retryBaseMs: pipe.settings.retryBaseMs,
    timeLeftMs: p.deadlineAt - now,
    now,
    jitter: Math.random(),
  });
}

/**
 * Ends the call on a failed attempt, the one way every call ends without a result: client.raw resolves to the last
 * answer (openapi-fetch's `error`); other calls reject with the attempt's error, built now with the outcome, or
 * with ExchangeAmbiguousResultError around it.
 */
function giveUp(
  pipe: Pipeline,
  p: PreparedCall,
  failed: Failed,
  attemptNo: number,
  decision: Decision<"give-up" | "ambiguous">,
): Sent {
  if (p.answerAs !== undefined && failed.answer !== undefined) return { data: undefined, response: failed.answer };
  const { log } = pipe.settings;
  let error: ExchangeError;
  if (decision.action === "ambiguous") {
    const check = p.call.check ?? "whether the request took effect";
    error = new ExchangeAmbiguousResultError(failed.make({ attempts: attemptNo }), check, p.operation);
    log.write("error", `exchange: ${error.message}`);
  } else {
    const { notRetriedReason, escalate } = decision;
    error = failed.make({ attempts: attemptNo, notRetriedReason, escalate });
    const level = failed.retryable ? "error" : "debug";
    log.write(level, `exchange: ${p.name} failed after ${attemptNo} attempt(s): ${error.message}`);
  }
  throw error;
}

/**
 * The order an earlier attempt may have created, looked up in the history (guarded calls). A lookup that fails ends
 * the call with its error unless `ignoreErrors`; the caller's abort always ends it.
 */
async function lookUp(p: PreparedCall, trace: CallTrace, ignoreErrors: boolean): Promise<Sent | undefined> {
  try {
    const found = await trace.within(async () => p.call.lookup?.(p.deadlineAt));
    trace.lookedUp(found !== undefined);
    return found;
  } catch (error) {
    if (ignoreErrors && !(error instanceof ExchangeAbortError)) return undefined;
    throw error;
  }
}

/**
 * The wait before the next attempt: logged, announced to onRetry, slept (the caller's abort cuts it short). A
 * guarded call then looks the order up: found, it is the result (undefined: send again).
 */
async function backOff(
  pipe: Pipeline,
  p: PreparedCall,
  failed: Failed,
  attemptNo: number,
  decision: Decision<"retry">,
  trace: CallTrace,
): Promise<Sent | undefined> {
  const { log, hooks } = pipe.settings;
  const { operation, name } = p;
  const delayMs = decision.delayMs;
  // This attempt's error, for the log line and onRetry; the call goes on.
  const error = failed.make({ attempts: attemptNo });
  log.write(
    "warn",
    `exchange: ${name} attempt ${attemptNo} failed (${error.message}); retrying in ${Math.round(delayMs)} ms`,
  );
  await hooks.onRetry?.({ operation, attempt: attemptNo, delayMs, error });
  await sleep(delayMs, p.options.signal, operation);
  if (!decision.lookUpFirst) return undefined;
  let found: Sent | undefined;
  try {
    found = await lookUp(p, trace, false);
  } catch (lookupError) {
    if (lookupError instanceof ExchangeAbortError) throw lookupError;
    const notRetriedReason = `the order history could not be checked (${(lookupError as Error).message})`;
    return giveUp(pipe, p, failed, attemptNo, { action: "give-up", notRetriedReason, escalate: false });
  }
  if (found !== undefined)
    log.write("info", `exchange: ${name}: attempt ${attemptNo} had created the order; not creating it again`);
  return found;
}

/**
 * A delete that met not-found after an attempt that may have deleted the record: that attempt did. The call resolves
 * to DeletedByEarlierAttempt, with the not-found answer as its response.
 */
function deletedEarlier(pipe: Pipeline, p: PreparedCall, failed: Failed, attemptNo: number, trace: CallTrace): Sent {
  pipe.settings.log.write(
    "info",
    `exchange: ${p.name}: attempt ${attemptNo} found the record gone; an earlier attempt whose answer was lost deleted it`,
  );
  trace.resolved("deleted_by_earlier_attempt");
  return { data: { deletedByEarlierAttempt: true, attempts: attemptNo }, response: failed.response! };
}

/**
 * After a failed attempt: the call's result (the order found, a delete done earlier, or client.raw's answer),
 * undefined to send again, or a throw that ends the call. `uncertainBefore`: an earlier attempt may have taken effect.
 */
async function afterFailure(
  pipe: Pipeline,
  p: PreparedCall,
  failed: Failed,
  attemptNo: number,
  trace: CallTrace,
  span: AttemptTrace,
  uncertainBefore: boolean,
) {
  for (let lookedUp = false; ; lookedUp = true) {
    const decision = decide(pipe, p, failed, attemptNo, lookedUp, uncertainBefore);
    if (decision.action === "deleted-earlier") return deletedEarlier(pipe, p, failed, attemptNo, trace);
    if (decision.action === "retry") {
      span.retryAfter(decision.delayMs);
      span.end();
      return backOff(pipe, p, failed, attemptNo, decision, trace);
    }
    if (decision.action !== "look-up") return giveUp(pipe, p, failed, attemptNo, decision);
    // Not found: decide again, knowing it is not there (decideRetry asks for one lookup per failure).
    const found = await lookUp(p, trace, decision.lookupErrorIgnored);
    if (found !== undefined) return found;
  }
}

/** One attempt under its span: the answer (or failure) recorded on it; the span ends unless a retry is decided. */
async function tracedAttempt(pipe: Pipeline, p: PreparedCall, attemptNo: number, span: AttemptTrace) {
  let result: Sent | Failed;
  try {
    result = await span.run(() => attempt(pipe, p, attemptNo, span));
  } catch (error) {
    span.end(error);
    throw error;
  }
  if (!isFailed(result)) span.answered(result.response.status, undefined);
  else span.answered(result.status, result.errCode, () => result.make({ attempts: attemptNo }));
  return result;
}

/** Attempt after attempt until a result, a final error or a decision to stop. */
async function attempts(pipe: Pipeline, p: PreparedCall, trace: CallTrace): Promise<Sent> {
  // Whether a failed attempt so far may have taken effect: one the service may have processed (a lost answer, a 500).
  let uncertain = false;
  for (let attemptNo = 1; ; attemptNo++) {
    const span = trace.attempt(attemptNo);
    const result = await tracedAttempt(pipe, p, attemptNo, span);
    try {
      if (!isFailed(result)) return result;
      const ended = await afterFailure(pipe, p, result, attemptNo, trace, span, uncertain);
      if (ended !== undefined) return ended;
      uncertain ||= !result.notProcessed;
    } finally {
      span.end();
    }
  }
}

/** One call: prepared once, traced, then attempted until it ends. */
async function sendCall(pipe: Pipeline, call: Call): Promise<Sent> {
  const p = prepareCall(pipe, call);
  const started = pipe.startTrace({ operation: p.operation, idempotency: call.idempotency, url: p.url });
  const trace = started instanceof Promise ? await started : started;
  try {
    const sent = await attempts(pipe, p, trace);
    trace.end();
    return sent;
  } catch (error) {
    trace.end(error);
    throw error;
  }
}

/** Creates the function every resource method, `client.request` and the helpers send through. */
export function createTransport(settings: TransportSettings): Send {
  const pipe: Pipeline = {
    settings,
    redact: createRedactor([settings.apiKey, settings.apiSecret]),
    // Called as a plain function, looked up per call: Workers reject fetch called with a foreign `this`, and a
    // fetch installed after construction (polyfills, test mocks) is used.
    fetch: settings.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    startTrace: createTracing(settings.tracing),
  };
  return <T>(call: Call) => sendCall(pipe, call) as Promise<Sent<T>>;
}
