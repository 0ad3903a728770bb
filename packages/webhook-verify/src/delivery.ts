import { credentialList } from "./credentials.js";
import { createDeduplicator, type Deduplicator, type DeliveryClaim } from "./deduplicator.js";
import { WebhookVerificationError, type WebhookVerificationErrorCode } from "./errors.js";
import type { ReceivedWebhookEvent, WebhookEvent } from "./events.js";
import type { WebhookHeaders } from "./headers.js";
import { type VerificationSettings, verifyWebhook } from "./verify.js";

// What the Fetch and Node adapters share: verify, claim, answer, then work.

export type WebhookHandlerOptions = VerificationSettings & {
  /**
   * Deduplicates deliveries on (id, event). Default: an in-process
   * `createDeduplicator()`; use one with `redisStore` when several instances
   * receive, or `false` to hand every delivery to `onEvent`.
   */
  deduplicator?: Deduplicator | false;
  /**
   * Called with what goes wrong out of sight: an `onEvent` that threw (the
   * claim is released so a redelivery retries), a store failure, or a
   * rejected delivery (a WebhookVerificationError with the detailed message
   * the HTTP answer leaves out). Default: console.warn / console.error.
   */
  onError?: (error: unknown, event?: ReceivedWebhookEvent) => void;
  /** Keeps the runtime alive for `onEvent` after the answer, where the handler's second argument does not. */
  waitUntil?: (promise: Promise<unknown>) => void;
  /** Largest body read, in bytes; larger deliveries get 413. Default 1 MiB. */
  maxBodyBytes?: number;
};

/** The code that receives events, after the delivery was answered. */
export type WebhookEventHandler<E = ReceivedWebhookEvent> = (event: E) => unknown;

/** An HTTP answer, and the work to start once it is sent. */
export interface Answer {
  status: number;
  body: string;
  work?: () => Promise<void>;
}

/** 401 for authentication failures; a body that is unusable (signed or not) is a client error, 400. */
function rejectedWith(code: WebhookVerificationErrorCode): number {
  return code === "MALFORMED_BODY" || code === "INVALID_EVENT" ? 400 : 401;
}

export function answer(status: number, body: object): Answer {
  return { status, body: JSON.stringify(body) };
}

function logError(error: unknown): void {
  if (error instanceof WebhookVerificationError) console.warn(`webhook rejected: ${error.code}: ${error.message}`);
  else console.error("webhook handling failed:", error);
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface DeliveryProcessor {
  (body: Uint8Array | string, headers: WebhookHeaders): Promise<Answer>;
  report(error: unknown, event?: ReceivedWebhookEvent): void;
}

export function createDeliveryProcessor(
  options: WebhookHandlerOptions,
  onEvent: WebhookEventHandler<WebhookEvent> | WebhookEventHandler,
): DeliveryProcessor {
  credentialList(options); // a configuration mistake fails at startup, not on the first delivery
  const { deduplicator: given, onError = logError, ...settings } = options;
  const deduplicator = given === false ? undefined : (given ?? createDeduplicator());
  const handle = onEvent as WebhookEventHandler;

  function report(error: unknown, event?: ReceivedWebhookEvent): void {
    try {
      onError(error, event);
    } catch (failure) {
      logError(failure); // an onError that throws must not become an unhandled rejection
    }
  }

  async function work(event: ReceivedWebhookEvent, claim: DeliveryClaim | undefined): Promise<void> {
    try {
      await handle(event);
    } catch (error) {
      if (claim?.status === "claimed") await claim.release().catch((failure: unknown) => report(failure, event));
      return report(error, event);
    }
    if (claim?.status === "claimed") await claim.complete().catch((failure: unknown) => report(failure, event));
  }

  async function deliver(body: Uint8Array | string, headers: WebhookHeaders): Promise<Answer> {
    let event: ReceivedWebhookEvent;
    try {
      event = await verifyWebhook({ ...(settings as VerificationSettings), body, headers });
    } catch (error) {
      report(error);
      // Only the code goes back: the message helps the developer, and would help a forger too.
      if (error instanceof WebhookVerificationError) return answer(rejectedWith(error.code), { error: error.code });
      return answer(500, { error: "INTERNAL_ERROR" });
    }
    let claim: DeliveryClaim | undefined;
    try {
      claim = await deduplicator?.claim(event);
    } catch (error) {
      report(error, event);
      return answer(500, { error: "DEDUP_STORE_UNAVAILABLE" }); // not acknowledged: the service redelivers
    }
    if (claim?.status === "duplicate") return answer(200, { received: true, duplicate: true });
    // Not acknowledged, so that the service redelivers if the delivery in progress fails.
    if (claim?.status === "in-progress") return answer(409, { error: "IN_PROGRESS" });
    return { ...answer(200, { received: true }), work: () => work(event, claim) };
  }

  return Object.assign(deliver, { report });
}

/**
 * Starts `work` on a later turn of the event loop, so the answer goes out
 * first even when `onEvent` starts with synchronous work.
 */
export function startAfterAnswer(work: () => Promise<void>, waitUntil?: (promise: Promise<unknown>) => void): void {
  const task = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(work);
  waitUntil?.(task);
}
