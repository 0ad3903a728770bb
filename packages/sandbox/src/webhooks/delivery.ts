// Delivers events to the organization's registered URL, signed as the document states: X-TIMESTAMP (Unix
// seconds, real time, taken per attempt so a retry is never stale) and X-SIGNATURE = Base64(HMAC-SHA256(secret,
// apiKey|timestamp|canonicalBody)), with the organization's own key and secret. The body sent is the canonical
// string itself. An answer other than 2xx within the timeout is a failed attempt, retried with backoff. Each
// attempt is deferred work (schedule/): on PostgreSQL a job any replica runs, so a delivery outlives the replica
// that scheduled it; the attempt reads the event as stored and records its outcome with the next attempt's job
// in one transaction.
import { request as httpRequest, type ClientRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { randomUUID } from "node:crypto";
import { canonicalize, computeSignature } from "@exchange-kit/signing";
import type { Store } from "../store/store.js";
import type { Delivery, EventRow } from "../records/rows.js";
import type { Logger } from "../logger.js";
import { causeNow, traceDeliveryAttempt } from "../tracing/tracing.js";
import { DeliveryHolds } from "../faults/delivery-holds.js";
import { type DeliverySchedule, recordKey } from "../faults/webhook-faults.js";
import type { DeferredWork, TaskPayload } from "../domain/deferred-work.js";
import { answerWindow, BodyHead, keptResponseBody } from "./receiver-answer.js";
import { attemptError, guardedLookup, literalRefusal, type WebhookTargetPolicy } from "./webhook-targets.js";

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
  work: DeferredWork;
  credentialsOf: (org: string) => Promise<{ apiKey: string; apiSecret: string } | undefined>;
  timeoutMs: number;
  retry: RetryPolicy;
  logger: Logger;
  /** Which targets deliveries reach (webhook-targets.ts); every one when absent. */
  targets?: WebhookTargetPolicy;
}

/** An attempt the receiver did not answer in time. */
class AttemptTimeout extends Error {}

const EVERY_TARGET: WebhookTargetPolicy = { restricted: false, allowed: new Set() };

/** One attempt as the deferred work carries it; `after` is the event an OUT_OF_ORDER hold waited for. */
interface AttemptPayload {
  readonly event: string;
  readonly delivery: string;
  readonly attempt: number;
  readonly after?: string;
}

/** What an attempt came to. */
interface Outcome {
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly started: number;
  /** The start of the receiver's answer (receiver-answer.ts); null when none came. */
  readonly responseBody?: string | null;
}

/** A receiver's answer: its status, and its body's start as an attempt keeps it, once told what to redact. */
interface ReceiverAnswer {
  readonly statusCode: number;
  body(secrets: readonly string[]): string;
}

/** The traces' causes kept at most: attempts another replica made leave theirs behind, dropped oldest first. */
const MAX_CAUSES = 10_000;

const keyOf = (delivery: string) => `attempt:${delivery}`;

/** The wait before attempt `attempt + 1`. */
export function retryDelayMs(retry: RetryPolicy, attempt: number): number {
  return Math.min(retry.maxDelayMs, retry.initialDelayMs * retry.factor ** (attempt - 1));
}

export class WebhookDelivery {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<ClientRequest>();
  /** The request that emitted each delivery's event (its trace context), for the attempts' spans. */
  private readonly causes = new Map<string, ReturnType<typeof causeNow>>();
  private readonly holds = new DeliveryHolds();
  private closed = false;

  private readonly targets: WebhookTargetPolicy;

  constructor(private readonly options: DeliveryOptions) {
    this.targets = options.targets ?? EVERY_TARGET;
    options.work.handle("webhook-attempt", (payload) =>
      this.attempt(payload as unknown as AttemptPayload).catch((error: unknown) => {
        options.logger.error(
          `webhook delivery failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
        );
        // Queued, the attempt is run again later (the database was unreachable); on a timer nothing would.
        if (options.work.durable) throw error;
      }),
    );
  }

  /** Starts one delivery of the event (all its attempts) and returns it; `schedule` is a webhook fault's. */
  async start(event: EventRow, reason: Delivery["reason"], schedule?: DeliverySchedule): Promise<Delivery> {
    const url = (await this.options.store.orgSettings.get(event.org))?.webhook_url ?? null;
    const delivery: Delivery = { id: randomUUID(), reason, url, state: url ? "pending" : "no_webhook", attempts: [] };
    if (schedule) {
      delivery.fault = schedule.fault;
      if (schedule.delayMs > 0) delivery.delay_ms = schedule.delayMs;
    }
    event.deliveries.push(delivery);
    this.keepCause(delivery.id, causeNow());
    await this.options.store.events.put(event);
    // Deferred in the transaction of the request (or step) that emitted it: a rolled-back event is never delivered.
    if (url) await this.launch(event, delivery, schedule);
    return delivery;
  }

  /** The first attempt: now, after a fault's delay, or once a later event of the record went (OUT_OF_ORDER). */
  private async launch(event: EventRow, delivery: Delivery, schedule: DeliverySchedule | undefined): Promise<void> {
    const first = { event: event.id, delivery: delivery.id, attempt: 1 };
    const { work, store } = this.options;
    // A hold's limit is a job of its own, so the delivery goes even when this process is gone before the release.
    await work.defer("webhook-attempt", keyOf(delivery.id), first, schedule?.delayMs ?? 0);
    if (schedule?.hold) {
      const release = async (after: string | null) => {
        if (after !== null) await work.defer("webhook-attempt", keyOf(delivery.id), { ...first, after }, 0);
      };
      store.afterCommit(() => this.holds.hold(recordKey(event), event.id, release, schedule.delayMs));
    } else if (delivery.reason === "initial") {
      store.afterCommit(() => this.holds.overtake(recordKey(event), event.id));
    }
  }

  /** Resolves once no delivery is pending (retries included). */
  idle(): Promise<void> {
    return this.options.work.idle("webhook-attempt");
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.holds.close();
    for (const req of this.inFlight) req.destroy();
    this.inFlight.clear();
  }

  private keepCause(delivery: string, cause: ReturnType<typeof causeNow>): void {
    if (!cause) return;
    this.causes.set(delivery, cause);
    if (this.causes.size > MAX_CAUSES) this.causes.delete(this.causes.keys().next().value as string);
  }

  /** The event and its delivery as stored, when the attempt is still due (not made already, not finished). */
  private async due(job: AttemptPayload): Promise<{ event: EventRow; delivery: Delivery } | undefined> {
    const event = await this.options.store.events.get(job.event);
    const delivery = event?.deliveries.find((d) => d.id === job.delivery);
    if (!event || !delivery || delivery.state !== "pending" || !delivery.url) return undefined;
    if (delivery.attempts.length >= job.attempt) return undefined;
    return { event, delivery };
  }

  /** Runs an attempt; whatever goes wrong in the HTTP exchange is the attempt's outcome, never thrown. */
  private async attempt(job: AttemptPayload): Promise<void> {
    if (this.closed) return;
    const found = await this.due(job);
    if (!found) return;
    const { event, delivery } = found;
    if (delivery.fault === "OUT_OF_ORDER" && job.attempt === 1) delivery.released_after_event = job.after ?? null;
    const span = traceDeliveryAttempt(this.causes.get(delivery.id), event.body, job.attempt, delivery.reason);
    const outcome = await this.send(event, delivery.url as string, span.inject);
    if (this.closed) return;
    const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    span.end(outcome.statusCode, !ok);
    await this.conclude(event, delivery, job.attempt, outcome, ok);
  }

  private async send(
    event: EventRow,
    url: string,
    inject: (headers: Record<string, string>) => void,
  ): Promise<Outcome> {
    const started = Date.now();
    const credentials = await this.options.credentialsOf(event.org);
    if (!credentials) return { statusCode: null, error: "organization has no credentials", started };
    try {
      const body = canonicalize(event.body);
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = await computeSignature({ ...credentials, timestamp, canonicalBody: body });
      const headers: Record<string, string> = {
        "X-TIMESTAMP": String(timestamp),
        "X-SIGNATURE": signature,
        "X-Sandbox-Event-Id": event.id,
      };
      inject(headers);
      const secrets = [credentials.apiSecret, signature];
      const answer = await this.post(url, body, headers, answerWindow(secrets));
      return { statusCode: answer.statusCode, error: null, started, responseBody: answer.body(secrets) };
    } catch (caught) {
      const detail = caught instanceof Error ? caught.message : String(caught);
      const situation = { restricted: this.targets.restricted, timedOut: caught instanceof AttemptTimeout };
      return { statusCode: null, error: attemptError(detail, situation), started };
    }
  }

  /** Records the attempt and, when it failed and attempts remain, defers the next one. */
  private async conclude(
    event: EventRow,
    delivery: Delivery,
    attempt: number,
    outcome: Outcome,
    ok: boolean,
  ): Promise<void> {
    const error = ok ? null : (outcome.error ?? `receiver answered ${outcome.statusCode}`);
    delivery.attempts.push({
      attempt,
      at: new Date(outcome.started).toISOString(),
      status_code: outcome.statusCode,
      error,
      duration_ms: Date.now() - outcome.started,
      response_body: outcome.responseBody ?? null,
    });
    // Deliveries an OUT_OF_ORDER fault held back for this event go once it has had its first attempt.
    if (attempt === 1) this.holds.passed(recordKey(event), event.id);
    const { retry, logger } = this.options;
    const { type, event: name, id } = event.body;
    if (ok || attempt >= retry.maxAttempts) {
      delivery.state = ok ? "delivered" : "failed";
      delivery.next_attempt_at = null;
      await this.record(event, delivery, undefined);
      this.causes.delete(delivery.id);
      logger.info(`webhook ${type} ${name} ${id} ${delivery.state} after ${attempt} attempt(s)`);
      return;
    }
    const delay = retryDelayMs(retry, attempt);
    delivery.next_attempt_at = new Date(Date.now() + delay).toISOString();
    await this.record(event, delivery, {
      event: event.id,
      delivery: delivery.id,
      attempt: attempt + 1,
      delayMs: delay,
    });
    logger.warn(`webhook ${type} ${name} ${id} attempt ${attempt} failed (${error}); retrying in ${delay} ms`);
  }

  /**
   * Stores this delivery's progress into the event as stored now (a redelivery may have added one meanwhile),
   * with the next attempt's job. When the disk is full the next attempt goes on regardless and the progress is
   * stored later, with backoff. Any other failure is thrown: a queued attempt is then run again by the queue.
   */
  private async record(
    event: EventRow,
    delivery: Delivery,
    next: (AttemptPayload & { delayMs: number }) | undefined,
  ): Promise<void> {
    const { store, work } = this.options;
    const deferNext = async () => {
      if (next) await work.defer("webhook-attempt", keyOf(next.delivery), payloadOf(next), next.delayMs);
    };
    try {
      await store.transaction(async () => {
        await this.storeDelivery(event, delivery);
        await deferNext();
      });
      store.recovery.succeeded();
    } catch (error) {
      const wait = store.recovery.failed(`recording webhook delivery ${delivery.id}`, error, 1);
      if (wait === undefined || this.closed) throw error;
      await deferNext();
      this.recordLater(event, delivery, wait, 1);
    }
  }

  private async storeDelivery(event: EventRow, delivery: Delivery): Promise<void> {
    const store = this.options.store;
    const stored = (await store.events.get(event.id)) ?? event;
    const index = stored.deliveries.findIndex((d) => d.id === delivery.id);
    if (index === -1) stored.deliveries.push(delivery);
    else stored.deliveries[index] = delivery;
    await store.events.put(stored);
  }

  /** Tries storing the delivery's progress again after `wait`, with backoff while the disk stays full. */
  private recordLater(event: EventRow, delivery: Delivery, wait: number, retry: number): void {
    const store = this.options.store;
    const timer = setTimeout(async () => {
      this.timers.delete(timer);
      await store.recovery.beforeRetry();
      try {
        await store.transaction(async () => await this.storeDelivery(event, delivery));
        store.recovery.succeeded();
      } catch (error) {
        const again = store.recovery.failed(`recording webhook delivery ${delivery.id}`, error, retry + 1);
        if (again !== undefined && !this.closed) this.recordLater(event, delivery, again, retry + 1);
        // Not about storage this time: nothing retries it, and a timer must never take the server down.
        else
          this.options.logger.error(
            `recording webhook delivery ${delivery.id} failed: ${error instanceof Error ? error.message : String(error)}`,
          );
      }
    }, wait);
    this.timers.add(timer);
  }

  /** Posts the delivery; resolves with the status and the start of the answer's body (see receiver-answer.ts). */
  private post(url: string, body: string, headers: Record<string, string>, keep: number): Promise<ReceiverAnswer> {
    return new Promise((resolve, reject) => {
      const target = new URL(url);
      const refused = literalRefusal(this.targets, target);
      if (refused) return reject(new Error(refused));
      const send = target.protocol === "https:" ? httpsRequest : httpRequest;
      const req = send(target, {
        method: "POST",
        lookup: guardedLookup(this.targets, target),
        // No keep-alive: a receiver's server can close without waiting for idle sockets of ours.
        agent: false,
        headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), ...headers },
      });
      this.inFlight.add(req);
      const timer = setTimeout(
        () => req.destroy(new AttemptTimeout(`no answer within ${this.options.timeoutMs} ms`)),
        this.options.timeoutMs,
      );
      const done = () => {
        clearTimeout(timer);
        this.inFlight.delete(req);
      };
      req.on("response", (res) => {
        const head = new BodyHead(keep);
        res.on("data", (chunk: Buffer) => head.add(chunk));
        res.on("end", () => {
          done();
          resolve({
            statusCode: res.statusCode ?? 0,
            body: (secrets) => keptResponseBody(head.bytes(), head.total, secrets),
          });
        });
        res.on("error", (e) => {
          done();
          reject(e);
        });
      });
      req.on("error", (e) => {
        done();
        reject(e);
      });
      req.end(body);
    });
  }
}

function payloadOf(job: AttemptPayload): TaskPayload {
  return { event: job.event, delivery: job.delivery, attempt: job.attempt };
}
