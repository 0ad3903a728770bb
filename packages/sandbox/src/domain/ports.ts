// The small interfaces the domain declares for what the features do for it: announce events (webhooks/), trace
// automatic steps (tracing/). The features implement them and the composition root (compose/domain-wiring.ts)
// hands them in, so the domain imports no feature folder. Deferred work has its own file (deferred-work.ts).
import type { WebhookEventName, WebhookEventType } from "@exchange-kit/types";
import type { EventRow } from "../records/rows.js";

/** The event log as the domain and the areas use it (webhooks/events.ts's EventLog implements it). */
export interface EventSink {
  /** The most recent event emitted, so the control API can report the event a move produced. */
  readonly lastEmitted: EventRow | undefined;
  /** Records an event of the catalog and starts its delivery. */
  emit<Type extends WebhookEventType>(
    org: string,
    type: Type,
    id: string,
    event: WebhookEventName<Type>,
    metadata: Record<string, unknown>,
  ): Promise<EventRow>;
  /** Delivers a recorded event again (the control API). */
  redeliver(row: EventRow): Promise<void>;
  /** The organization's events, oldest first, narrowed by record type, record ID and event. */
  list(org: string, filter?: { type?: string; id?: string; event?: string }): Promise<EventRow[]>;
}

/** The span of one automatic step, which is the cause of the events it emits and of the step it schedules. */
export interface StepTrace {
  run<T>(work: () => T): T;
  end(failed: boolean): void;
}

/** How automatic steps are traced (tracing/tracing.ts's stepTracing): each a child of what scheduled it. */
export interface StepTracing {
  /** What runs now (its trace context), kept as the cause of a step scheduled from here. */
  cause(): unknown;
  /** Starts the span of a step of record `kind` `id` under `cause`. */
  step(cause: unknown, kind: string, id: string): StepTrace;
}

/** No tracing: steps run as they are. */
export const NO_STEP_TRACING: StepTracing = {
  cause: () => undefined,
  step: () => ({ run: (work) => work(), end() {} }),
};
