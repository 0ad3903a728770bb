// Faults on webhook deliveries: when an event is emitted, the organization's armed webhook rules (then chaos
// mode) may pick a fault for it. DUPLICATE_DELIVERY sends it twice; DELAYED_DELIVERY starts its delivery
// `delay_ms` late; OUT_OF_ORDER holds it until a later event of the same record was delivered (at most
// `delay_ms`). Each shows in the event log: the delivery carries its `fault`.
import type { EventRow } from "../records/rows.js";
import type { Chaos } from "./chaos.js";
import type { WebhookFaultKind } from "./fault-kinds.js";
import type { FaultPlan } from "./fault-plan.js";
import type { AppliedWebhookFault } from "./fault-records.js";
import { DEFAULT_HOLD_MS } from "./fault-request.js";

/** How one delivery of an event departs from the normal one. */
export interface DeliverySchedule {
  fault: WebhookFaultKind;
  /** DELAYED_DELIVERY: the wait before the first attempt; OUT_OF_ORDER: the longest hold. */
  delayMs: number;
  /** OUT_OF_ORDER: held until a later event of the same record had its first attempt. */
  hold: boolean;
}

/** The hook the event log calls (webhooks/events.ts); absent, every event is delivered normally. */
export interface WebhookFaultHook {
  /** The fault for this newly emitted event, if any (recorded as fired). */
  forEvent(event: EventRow): Promise<AppliedWebhookFault | undefined>;
}

/** The record an event is about: deliveries are held and reordered among one record's events. */
export function recordKey(event: Pick<EventRow, "org" | "body">): string {
  return `${event.org}|${event.body.type}|${event.body.id}`;
}

/**
 * The schedule of the initial delivery and of the deliberate duplicate under a fault (undefined: a normal one;
 * the duplicate is sent at all only under DUPLICATE_DELIVERY or the duplicate_deliveries setting).
 *
 * @example
 * schedules({ kind: "DELAYED_DELIVERY", source: "plan", ruleId: "r", delayMs: 800 }).initial;
 * // { fault: "DELAYED_DELIVERY", delayMs: 800, hold: false }
 */
export function schedules(fault: AppliedWebhookFault | undefined): {
  initial?: DeliverySchedule;
  duplicate?: DeliverySchedule;
} {
  if (!fault) return {};
  if (fault.kind === "DUPLICATE_DELIVERY") return { duplicate: { fault: fault.kind, delayMs: 0, hold: false } };
  return { initial: { fault: fault.kind, delayMs: fault.delayMs, hold: fault.kind === "OUT_OF_ORDER" } };
}

/** Webhook faults from the organization's fault plan and, in chaos mode, chaos. */
export class WebhookFaults implements WebhookFaultHook {
  constructor(
    private readonly plan: FaultPlan,
    private readonly chaos?: Chaos,
  ) {}

  async forEvent(event: EventRow): Promise<AppliedWebhookFault | undefined> {
    // Drawn for every event, armed rule or not, so the chaos sequence depends on the events alone.
    const chaos = this.chaos?.nextEvent();
    const details = { event_id: event.id, event_type: event.body.type };
    const rule = await this.plan.take(event.org, "webhook", event.body.type, details);
    if (rule) {
      const kind = rule.fault as WebhookFaultKind;
      const delayMs = rule.delay_ms ?? (kind === "OUT_OF_ORDER" ? DEFAULT_HOLD_MS : 0);
      return { kind, source: "plan", ruleId: rule.id, delayMs };
    }
    if (!chaos) return undefined;
    await this.plan.recordChaos(event.org, "webhook", chaos.kind, {
      ...details,
      ...(chaos.delayMs > 0 ? { delay_ms: chaos.delayMs } : {}),
    });
    return chaos;
  }
}
