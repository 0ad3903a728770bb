// How `exchange-kit logs --events` writes the event log: each event once, then each delivery attempt once, as
// they appear between two reads of GET /_sandbox/events. What was printed is remembered per event and delivery,
// so a re-read prints only what is new.
import type { SandboxEvent } from "@exchange-kit/sandbox";
import { clockTime } from "./request-lines.js";

/** An event as GET /_sandbox/events answers it. */
export interface EventView {
  id: string;
  created_at: string;
  body: SandboxEvent["body"];
  deliveries: SandboxEvent["deliveries"];
}

type DeliveryView = EventView["deliveries"][number];
type AttemptView = DeliveryView["attempts"][number];

/** One thing to print: an event, or an attempt of one of its deliveries. */
export type EventLogItem =
  | { kind: "event"; event: EventView }
  | { kind: "attempt"; event: EventView; delivery: DeliveryView; attempt: AttemptView };

/** What has been printed: the events, and the attempts printed of each delivery. */
export interface PrintedEvents {
  events: Set<string>;
  attempts: Map<string, number>;
}

export const nothingPrinted = (): PrintedEvents => ({ events: new Set(), attempts: new Map() });

/**
 * What is new in `events` since `printed`, in order (each event, then its attempts), recording it as printed.
 *
 * @example
 * const printed = nothingPrinted();
 * newItems(events, printed); // every event and attempt
 * newItems(events, printed); // [] (nothing new)
 */
export function newItems(events: readonly EventView[], printed: PrintedEvents): EventLogItem[] {
  const items: EventLogItem[] = [];
  for (const event of events) {
    if (!printed.events.has(event.id)) {
      printed.events.add(event.id);
      items.push({ kind: "event", event });
    }
    for (const delivery of event.deliveries) {
      const done = printed.attempts.get(delivery.id) ?? 0;
      for (const attempt of delivery.attempts.slice(done)) items.push({ kind: "attempt", event, delivery, attempt });
      printed.attempts.set(delivery.id, delivery.attempts.length);
    }
  }
  return items;
}

/**
 * Like newItems, but only the latest `limit` events (with their attempts) are returned; the older ones are recorded
 * as printed too, so following goes on from here without printing them later.
 *
 * @example
 * latestItems(events, nothingPrinted(), 5); // the last 5 events and their attempts
 */
export function latestItems(events: readonly EventView[], printed: PrintedEvents, limit: number): EventLogItem[] {
  const older = events.slice(0, Math.max(0, events.length - limit));
  newItems(older, printed);
  return newItems(events.slice(older.length), printed);
}

/** The answer part of an attempt line: the status code, or the error when none came. */
function answerOf(attempt: AttemptView): string {
  const answered = attempt.status_code === null ? "no answer" : String(attempt.status_code);
  const error = attempt.error && attempt.status_code === null ? ` (${attempt.error})` : "";
  return `${answered}${error}`;
}

/** What comes after an attempt: the next retry while one is due, the delivery's end otherwise. */
function outcomeOf(delivery: DeliveryView, attempt: AttemptView): string {
  const last = delivery.attempts[delivery.attempts.length - 1] === attempt;
  if (last && delivery.state === "pending" && delivery.next_attempt_at)
    return `, next retry ${clockTime(delivery.next_attempt_at)}`;
  if (last && (delivery.state === "delivered" || delivery.state === "failed")) return `, ${delivery.state}`;
  return "";
}

/**
 * The line of an item: `12:01:02 CUSTOMER VERIFIED 5b1c… event 9f2e…` for an event;
 * `12:01:02   attempt 1 → 500 12 ms (initial, http://…/hooks), next retry 12:01:03` for an attempt.
 */
export function itemLine(item: EventLogItem): string {
  const { event } = item;
  if (item.kind === "event") {
    const body = event.body;
    const noWebhook = event.deliveries.some((d) => d.state === "no_webhook") ? " (no webhook URL registered)" : "";
    return `${clockTime(event.created_at)} ${body.type} ${body.event} ${body.id} event ${event.id}${noWebhook}`;
  }
  const { delivery, attempt } = item;
  return `${clockTime(attempt.at)}   attempt ${attempt.attempt} → ${answerOf(attempt)} ${attempt.duration_ms} ms (${delivery.reason}, ${delivery.url ?? "no URL"})${outcomeOf(delivery, attempt)}${bodyOf(attempt)}`;
}

/** The longest part of a receiver's answer an attempt line shows (--json has all that the sandbox kept). */
const BODY_SHOWN = 80;

/** The start of the receiver's answer on one line: ` body: {"error":"…"}`, or "" when it sent none. */
function bodyOf(attempt: AttemptView): string {
  const body = attempt.response_body?.replace(/\s+/g, " ").trim();
  if (!body) return "";
  return ` body: ${body.length > BODY_SHOWN ? `${body.slice(0, BODY_SHOWN)}…` : body}`;
}

/** The JSON of an item for --json: one object per event and per attempt. */
export function itemJson(item: EventLogItem): Record<string, unknown> {
  if (item.kind === "event") return { kind: "event", ...item.event };
  const { event, delivery, attempt } = item;
  return {
    kind: "attempt",
    event_id: event.id,
    delivery_id: delivery.id,
    reason: delivery.reason,
    url: delivery.url,
    state: delivery.state,
    next_attempt_at: delivery.next_attempt_at ?? null,
    ...attempt,
  };
}
