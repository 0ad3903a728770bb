import { credentialList } from "./credentials.js";
import { createDeduplicator, type Deduplicator, type DeliveryClaim, settle } from "./deduplicator.js";
import { WebhookVerificationError } from "./errors.js";
import type { ReceivedWebhookEvent, WebhookEvent } from "./events.js";
import type { WebhookHeaders } from "./headers.js";
import type { Inbox } from "./inbox.js";
import type { DeliveryOutcome, DeliveryTrace } from "./trace-types.js";
import { createDeliveryTracing } from "./tracing.js";
import { type VerificationSettings, verifyWebhook } from "./verify.js";

export type WebhookHandlerOptions = VerificationSettings & {
  /**
   * Deduplicates deliveries (on id, event and timestamp by default). Default: an in-process
   * `createDeduplicator()`; use one with `redisStore` when several instances
   * receive, or `false` to hand every delivery to `onEvent`.
   */
  deduplicator?: Deduplicator | false;
  /**
   * A durable inbox (`createInbox`) instead of `onEvent`: each verified event is stored in it before the 200,
   * and the inbox's worker runs its handler; a redelivery of a stored event is answered as a duplicate. A
   * store that fails or is slow gets 503, so the service delivers again. Not with `deduplicator`.
   */
  inbox?: Inbox;
  /**
   * Called with what goes wrong out of sight: an `onEvent` that threw (the
   * claim is released so a redelivery retries), a store failure, or a
   * rejected delivery (a WebhookVerificationError with the detailed message
   * the HTTP answer leaves out). Default: console.warn / console.error.
   */
  onError?: (error: unknown, event?: ReceivedWebhookEvent) => void;
  /** Keeps the runtime alive for `onEvent` after the answer, where the handler's second argument does not. */
  waitUntil?: (promise: Promise<unknown>) => void;
  /** Largest body read, in bytes; larger deliveries get 413. Default 256 KB: events are under 1 KB. */
  maxBodyBytes?: number;
  /**
   * OpenTelemetry spans per delivery when the application has `@opentelemetry/api` and a registered tracer
   * provider. Default true; with false the API is never imported.
   */
  tracing?: boolean;
};

/** The code that receives events, after the delivery was answered. */
export type WebhookEventHandler<E = ReceivedWebhookEvent> = (event: E) => unknown;

/** What runtimes pass beside the request to keep work alive after the response (Workers, Vercel, Deno Deploy). */
export interface WebhookContext {
  waitUntil?(promise: Promise<unknown>): void;
}

/** An HTTP answer: a status, a JSON body and any headers beside content-type. */
export interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** What a 503 asks the sender to wait: a store outage is usually short, and the sender backs off anyway. */
const RETRY_AFTER_SECONDS = 1;

export function answer(status: number, body: object, headers?: Record<string, string>): Answer {
  return { status, body: JSON.stringify(body), headers };
}

function logError(error: unknown): void {
  if (error instanceof WebhookVerificationError) console.warn(`webhook rejected: ${error.code}: ${error.message}`);
  else console.error("webhook handling failed:", error);
}

/** Reads the raw body; undefined once it exceeds `limit` bytes. */
export type BodyReader = (limit: number) => Promise<Uint8Array | string | undefined>;

/**
 * Answers one request for an adapter and starts `onEvent` after the answer
 * (kept alive by `context.waitUntil`, or else the `waitUntil` option).
 */
export interface DeliveryProcessor {
  (method: string | undefined, headers: WebhookHeaders, read: BodyReader, context?: WebhookContext): Promise<Answer>;
  report(error: unknown, event?: ReceivedWebhookEvent): void;
}

/** Where verified events go: a durable inbox, or `onEvent` after the answer under a dedup claim. */
type Dispatch = (event: ReceivedWebhookEvent, trace: DeliveryTrace, context?: WebhookContext) => Promise<Answer>;

/** The answer, recorded on the delivery's span with what it means. */
function traced(trace: DeliveryTrace, reply: Answer, outcome: DeliveryOutcome, code?: string): Answer {
  trace.answered(reply.status, outcome, code);
  return reply;
}

/** A 503 that asks the sender to deliver again: nothing was recorded or handled. */
const unavailable = (trace: DeliveryTrace, code: string) =>
  traced(trace, answer(503, { error: code }, { "retry-after": String(RETRY_AFTER_SECONDS) }), "unavailable", code);

/** What receiving a delivery needs from its processor. */
interface Receiver {
  readonly settings: VerificationSettings;
  readonly maxBodyBytes: number;
  readonly report: DeliveryProcessor["report"];
  readonly dispatch: Dispatch;
}

/** Method, size limit and verification, then the dispatch of the verified event; each answer traced. */
async function receive(
  r: Receiver,
  trace: DeliveryTrace,
  method: string | undefined,
  headers: WebhookHeaders,
  read: BodyReader,
  context?: WebhookContext,
): Promise<Answer> {
  if (method !== "POST") {
    return traced(
      trace,
      answer(405, { error: "METHOD_NOT_ALLOWED" }, { allow: "POST" }),
      "rejected",
      "METHOD_NOT_ALLOWED",
    );
  }
  const body = await read(r.maxBodyBytes);
  if (body === undefined)
    return traced(trace, answer(413, { error: "PAYLOAD_TOO_LARGE" }), "rejected", "PAYLOAD_TOO_LARGE");
  let event: ReceivedWebhookEvent;
  try {
    event = await verifyWebhook({ ...r.settings, body, headers });
  } catch (error) {
    r.report(error);
    const code = error instanceof WebhookVerificationError ? error.code : "INTERNAL_ERROR";
    return traced(trace, rejected(error), "rejected", code);
  }
  trace.verified(event);
  return r.dispatch(event, trace, context);
}

/** What the Fetch and Node adapters share: method, size limit, verify, then the inbox or claim-answer-run. */
export function createDeliveryProcessor(
  options: WebhookHandlerOptions,
  onEvent?: WebhookEventHandler<WebhookEvent> | WebhookEventHandler,
): DeliveryProcessor {
  credentialList(options); // a configuration mistake fails at startup, not on the first delivery
  const { deduplicator, inbox, onError = logError, maxBodyBytes = 256 * 1024, tracing, ...rest } = options;
  if (inbox !== undefined && deduplicator !== undefined) {
    throw new TypeError("pass either an inbox (it deduplicates what it stores) or a deduplicator, not both");
  }
  const settings = rest as VerificationSettings;

  function report(error: unknown, event?: ReceivedWebhookEvent): void {
    try {
      onError(error, event);
    } catch (failure) {
      logError(failure); // an onError that throws must not become an unhandled rejection
    }
  }

  const dispatch =
    inbox === undefined
      ? runAfterAnswer(deduplicator, options.waitUntil, onEvent, report)
      : toInbox(inbox, onEvent, report);
  const startTrace = createDeliveryTracing(tracing !== false);

  async function deliver(
    method: string | undefined,
    headers: WebhookHeaders,
    read: BodyReader,
    context?: WebhookContext,
  ): Promise<Answer> {
    const trace = await startTrace(method, headers);
    try {
      return await receive({ settings, maxBodyBytes, report, dispatch }, trace, method, headers, read, context);
    } catch (error) {
      trace.answered(500, "unavailable", "INTERNAL_ERROR");
      throw error;
    }
  }

  return Object.assign(deliver, { report });
}

/**
 * Only the code goes back: the message helps the developer, and would help a forger too. 401 for
 * authentication failures; a body that is unusable (signed or not) is a client error, 400.
 */
function rejected(error: unknown): Answer {
  if (!(error instanceof WebhookVerificationError)) return answer(500, { error: "INTERNAL_ERROR" });
  return answer(error.code === "MALFORMED_BODY" || error.code === "INVALID_EVENT" ? 400 : 401, { error: error.code });
}

/** Stores the event in the inbox, then answers: 200 only once it is stored. */
function toInbox(inbox: Inbox, onEvent: unknown, report: DeliveryProcessor["report"]): Dispatch {
  if (onEvent !== undefined)
    throw new TypeError("pass either an inbox (its handler runs the events) or onEvent, not both");
  if (typeof inbox?.accept !== "function") throw new TypeError("inbox must be an Inbox from createInbox()");
  return async (event, trace) => {
    let outcome: "accepted" | "duplicate";
    try {
      outcome = await trace.store("exchange.webhook.inbox.accept", () => inbox.accept(event));
    } catch (error) {
      report(error, event);
      return unavailable(trace, "INBOX_UNAVAILABLE");
    }
    const body = outcome === "duplicate" ? { received: true, duplicate: true } : { received: true };
    return traced(trace, answer(200, body), outcome);
  };
}

/** Claims the event, answers, then runs `onEvent` (kept alive by `context.waitUntil`, or the `waitUntil` option). */
function runAfterAnswer(
  given: Deduplicator | false | undefined,
  waitUntil: WebhookHandlerOptions["waitUntil"],
  onEvent: unknown,
  report: DeliveryProcessor["report"],
): Dispatch {
  if (typeof onEvent !== "function") throw new TypeError("pass onEvent, the function that receives the events");
  const deduplicator = given === false ? undefined : (given ?? createDeduplicator());
  return async (event, trace, context) => {
    let claim: DeliveryClaim | undefined;
    try {
      claim = deduplicator && (await trace.store("exchange.webhook.dedup.claim", () => deduplicator.claim(event)));
    } catch (error) {
      report(error, event);
      // Not acknowledged and nothing handled: the service redelivers. Answered within the store timeout.
      return unavailable(trace, "DEDUP_STORE_UNAVAILABLE");
    }
    if (claim?.status === "duplicate")
      return traced(trace, answer(200, { received: true, duplicate: true }), "duplicate");
    // Not acknowledged, so that the service redelivers if the delivery in progress fails.
    if (claim?.status === "in-progress") {
      return traced(trace, answer(409, { error: "IN_PROGRESS" }), "in_progress", "IN_PROGRESS");
    }
    // The work starts on a later turn of the event loop, so the answer goes out first even when
    // onEvent starts with synchronous work; waitUntil keeps the runtime alive for it.
    const task = new Promise((resolve) => setTimeout(resolve))
      .then(() =>
        settle(
          claim?.status === "claimed" ? claim : undefined,
          () => trace.handle(async () => (onEvent as WebhookEventHandler)(event)),
          (failure) => report(failure, event),
        ),
      )
      .catch((error: unknown) => report(error, event));
    if (context?.waitUntil) context.waitUntil(task);
    else waitUntil?.(task);
    return traced(trace, answer(200, { received: true }), "accepted");
  };
}
