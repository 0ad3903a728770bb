// Emits events of the catalog: records them in the event log and starts their delivery. PROCESSING (and the
// other statuses the catalog has no event for) is never emitted: callers ask `isEventStatus` first.
import { randomUUID } from "node:crypto";
import { type WebhookEventName, type WebhookEventType, webhookEventsByType } from "@exchange-kit/types";
import type { EventRow } from "../records/rows.js";
import type { Store } from "../store/store.js";
import { SandboxClock } from "../domain/clock.js";
import type { OrganizationState } from "../domain/organization-state.js";
import { schedules, type WebhookFaultHook } from "../faults/webhook-faults.js";
import type { WebhookDelivery } from "./delivery.js";

/** The catalog: which (type, event) pairs exist (the spec's, generated into @exchange-kit/types). */
export const EVENT_CATALOG: { readonly [T in WebhookEventType]: readonly WebhookEventName<T>[] } = webhookEventsByType;

export function isEventStatus(type: WebhookEventType, status: string): boolean {
  return (EVENT_CATALOG[type] as readonly string[]).includes(status);
}

export class EventLog {
  /** The most recent event emitted, so the control API can report the event a move produced. */
  lastEmitted: EventRow | undefined;

  constructor(
    private readonly store: Store,
    /** Each organization's clock (the event's timestamp) and settings (duplicate deliveries). */
    private readonly state: OrganizationState,
    private readonly delivery: WebhookDelivery,
    /** Webhook faults (the fault plan, chaos mode); none when absent. */
    private readonly faults?: WebhookFaultHook,
  ) {}

  async emit<Type extends WebhookEventType>(
    org: string,
    type: Type,
    id: string,
    event: WebhookEventName<Type>,
    metadata: Record<string, unknown>,
  ): Promise<EventRow> {
    if (!isEventStatus(type, event)) throw new Error(`${type} ${event} is not an event of the catalog`);
    const row: EventRow = {
      id: randomUUID(),
      org,
      body: {
        type,
        id,
        event,
        timestamp: new SandboxClock(this.state, org, await this.state.clockOffsetMs(org)).iso(),
        metadata,
      },
      created_at: new Date().toISOString(),
      deliveries: [],
    };
    this.lastEmitted = row;
    const { initial, duplicate } = schedules(await this.faults?.forEvent(row));
    // start() records the delivery on the row and stores it: the one write of a new event.
    await this.delivery.start(row, "initial", initial);
    // Duplicates are a feature: receivers must deduplicate on id + event, and this lets them test it.
    if (duplicate || (await this.state.settings(org)).duplicateDeliveries)
      await this.delivery.start(row, "duplicate", duplicate);
    return row;
  }

  async redeliver(row: EventRow): Promise<void> {
    await this.delivery.start(row, "redelivery");
  }

  async list(org: string, filter: { type?: string; id?: string; event?: string } = {}): Promise<EventRow[]> {
    return (await this.store.events.where("org = ?", [org], "created_at, seq")).filter(
      (e) =>
        (!filter.type || e.body.type === filter.type) &&
        (!filter.id || e.body.id === filter.id) &&
        (!filter.event || e.body.event === filter.event),
    );
  }
}
