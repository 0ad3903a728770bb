// Delivers events to the organization's registered URL, signed as the document states: X-TIMESTAMP (Unix
// seconds, real time, taken per attempt so a retry is never stale) and X-SIGNATURE = Base64(HMAC-SHA256(secret,
// apiKey|timestamp|canonicalBody)), with the organization's own key and secret. The body sent is the canonical
// string itself. An answer other than 2xx within the timeout is a failed attempt, retried with backoff.
import { request as httpRequest, type ClientRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { randomUUID } from "node:crypto";
import { canonicalize, computeSignature } from "@exchange-kit/signing";
import type { Store } from "../store/store.js";
import type { Delivery, EventRow } from "../store/records.js";
import type { Logger } from "../logger.js";
import { causeNow, traceDeliveryAttempt } from "../tracing/tracing.js";
import { DeliveryHolds } from "../faults/delivery-holds.js";
import { type DeliverySchedule, recordKey } from "../faults/webhook-faults.js";

export interface RetryPolicy {
  /** Attempts per delivery, the first included. Default 6. */
  maxAttempts: number;
  /** Wait before the second attempt. Default 500 ms. */
  initialDelayMs: number;
  /** Each further wait is the previous one times this. Default 2. */
  factor: number;
  /** Upper bound of one wait. Default 30 s. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 6, initialDelayMs: 500, factor: 2, maxDelayMs: 30_000 };

export interface DeliveryOptions {
  store: Store;
  credentialsOf: (org: string) => { apiKey: string; apiSecret: string } | undefined;
  timeoutMs: number;
  retry: RetryPolicy;
  logger: Logger;
}

export class WebhookDelivery {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<ClientRequest>();
  /** The request that emitted each delivery's event (its trace context), for the attempts' spans. */
  private readonly causes = new WeakMap<Delivery, ReturnType<typeof causeNow>>();
  private readonly holds = new DeliveryHolds();
  private pending = 0;
  private idleWaiters: Array<() => void> = [];
  private closed = false;

  constructor(private readonly options: DeliveryOptions) {}

  /** Starts one delivery of the event (all its attempts) and returns it; `schedule` is a webhook fault's. */
  start(event: EventRow, reason: Delivery["reason"], schedule?: DeliverySchedule): Delivery {
    const url = this.options.store.orgSettings.get(event.org)?.webhook_url ?? null;
    const delivery: Delivery = { id: randomUUID(), reason, url, state: url ? "pending" : "no_webhook", attempts: [] };
    if (schedule) {
      delivery.fault = schedule.fault;
      if (schedule.delayMs > 0) delivery.delay_ms = schedule.delayMs;
    }
    event.deliveries.push(delivery);
    this.causes.set(delivery, causeNow());
    this.options.store.events.put(event);
    // Sent only once the request (or step) that emitted it is committed: a rolled-back event is never delivered.
    if (url)
      this.options.store.afterCommit(() => {
        if (this.closed) return;
        this.pending++;
        this.launch(event, delivery, url, schedule);
      });
    return delivery;
  }

  /** The first attempt: now, after a fault's delay, or once a later event of the record went (OUT_OF_ORDER). */
  private launch(event: EventRow, delivery: Delivery, url: string, schedule: DeliverySchedule | undefined): void {
    const go = () => this.run(event, delivery, url, 1);
    if (schedule?.hold) {
      this.holds.hold(
        recordKey(event),
        event.id,
        (after) => {
          delivery.released_after_event = after;
          go();
        },
        schedule.delayMs,
      );
      return;
    }
    if (delivery.reason === "initial") this.holds.overtake(recordKey(event), event.id);
    if (!schedule || schedule.delayMs === 0) {
      go();
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      go();
    }, schedule.delayMs);
    this.timers.add(timer);
  }

  /** Resolves once no delivery is pending (retries included). */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.holds.close();
    for (const req of this.inFlight) req.destroy();
    this.inFlight.clear();
    this.pending = 0;
    this.settle();
  }

  private settle(): void {
    if (this.pending > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Runs an attempt; whatever goes wrong is logged, never thrown into the event loop. */
  private run(event: EventRow, delivery: Delivery, url: string, attempt: number): void {
    this.attempt(event, delivery, url, attempt).catch((error: unknown) => {
      this.options.logger.error(
        `webhook delivery failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
      );
      delivery.state = "failed";
      this.pending = Math.max(0, this.pending - 1);
      this.settle();
    });
  }

  private async attempt(event: EventRow, delivery: Delivery, url: string, attempt: number): Promise<void> {
    if (this.closed) return;
    const credentials = this.options.credentialsOf(event.org);
    const started = Date.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    const span = traceDeliveryAttempt(this.causes.get(delivery), event.body, attempt, delivery.reason);
    if (!credentials) {
      error = "organization has no credentials";
    } else {
      try {
        const body = canonicalize(event.body);
        const timestamp = Math.floor(Date.now() / 1000);
        const signature = await computeSignature({ ...credentials, timestamp, canonicalBody: body });
        const headers: Record<string, string> = {
          "X-TIMESTAMP": String(timestamp),
          "X-SIGNATURE": signature,
          "X-Sandbox-Event-Id": event.id,
        };
        span.inject(headers);
        statusCode = await this.post(url, body, headers);
      } catch (caught) {
        error = caught instanceof Error ? caught.message : String(caught);
      }
    }
    if (this.closed) return;
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
    if (!ok && error === null) error = `receiver answered ${statusCode}`;
    span.end(statusCode, !ok);
    delivery.attempts.push({
      attempt,
      at: new Date(started).toISOString(),
      status_code: statusCode,
      error: ok ? null : error,
      duration_ms: Date.now() - started,
    });
    // Deliveries an OUT_OF_ORDER fault held back for this event go once it has had its first attempt.
    if (attempt === 1) this.holds.passed(recordKey(event), event.id);
    const { retry, logger } = this.options;
    if (ok || attempt >= retry.maxAttempts) {
      delivery.state = ok ? "delivered" : "failed";
      delivery.next_attempt_at = null;
      this.record(event, delivery);
      logger.info(
        `webhook ${event.body.type} ${event.body.event} ${event.body.id} ${delivery.state} after ${attempt} attempt(s)`,
      );
      this.pending--;
      this.settle();
      return;
    }
    this.retryLater(event, delivery, url, attempt, error);
  }

  /** Records a failed attempt with when the next one is due, and schedules it. */
  private retryLater(event: EventRow, delivery: Delivery, url: string, attempt: number, error: string | null): void {
    const { retry, logger } = this.options;
    const delay = Math.min(retry.maxDelayMs, retry.initialDelayMs * retry.factor ** (attempt - 1));
    delivery.next_attempt_at = new Date(Date.now() + delay).toISOString();
    this.record(event, delivery);
    logger.warn(
      `webhook ${event.body.type} ${event.body.event} ${event.body.id} attempt ${attempt} failed (${error}); retrying in ${delay} ms`,
    );
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.run(event, delivery, url, attempt + 1);
    }, delay);
    this.timers.add(timer);
  }

  /**
   * Stores this delivery's progress into the event as stored now (a redelivery may have added one meanwhile).
   * When the disk is full it is stored later, with backoff: the delivery goes on meanwhile, and the retry stores
   * the delivery as it is by then.
   */
  private record(event: EventRow, delivery: Delivery, retry = 0): void {
    const store = this.options.store;
    try {
      store.transaction(() => {
        const stored = store.events.get(event.id) ?? event;
        const index = stored.deliveries.findIndex((d) => d.id === delivery.id);
        if (index === -1) stored.deliveries.push(delivery);
        else stored.deliveries[index] = delivery;
        store.events.put(stored);
      });
      store.recovery.succeeded();
    } catch (error) {
      const wait = store.recovery.failed(`recording webhook delivery ${delivery.id}`, error, retry + 1);
      if (wait === undefined || this.closed) throw error;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        store.recovery.beforeRetry();
        try {
          this.record(event, delivery, retry + 1);
        } catch (later) {
          // Not about storage this time: nothing retries it, and a timer must never take the server down.
          this.options.logger.error(
            `recording webhook delivery ${delivery.id} failed: ${later instanceof Error ? later.message : String(later)}`,
          );
        }
      }, wait);
      this.timers.add(timer);
    }
  }

  private post(url: string, body: string, headers: Record<string, string>): Promise<number> {
    return new Promise((resolve, reject) => {
      const target = new URL(url);
      const send = target.protocol === "https:" ? httpsRequest : httpRequest;
      const req = send(target, {
        method: "POST",
        // No keep-alive: a receiver's server can close without waiting for idle sockets of ours.
        agent: false,
        headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), ...headers },
      });
      this.inFlight.add(req);
      const timer = setTimeout(
        () => req.destroy(new Error(`no answer within ${this.options.timeoutMs} ms`)),
        this.options.timeoutMs,
      );
      req.on("response", (res) => {
        res.resume();
        res.on("end", () => {
          clearTimeout(timer);
          this.inFlight.delete(req);
          resolve(res.statusCode ?? 0);
        });
        res.on("error", (e) => {
          clearTimeout(timer);
          this.inFlight.delete(req);
          reject(e);
        });
      });
      req.on("error", (e) => {
        clearTimeout(timer);
        this.inFlight.delete(req);
        reject(e);
      });
      req.end(body);
    });
  }
}
