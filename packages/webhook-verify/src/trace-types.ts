// The shapes of a delivery's trace, shared by tracing.ts (which loads the span code lazily and hands out the no-op
// trace) and tracing-spans.ts (which records real spans): kept apart so that neither imports the other's module.
import type { ReceivedWebhookEvent } from "./events.js";

export type OtelApi = typeof import("@opentelemetry/api");

/** What the delivery came to, as `exchange.webhook.outcome`. */
export type DeliveryOutcome = "accepted" | "duplicate" | "rejected" | "in_progress" | "unavailable";

/** The trace of one delivery. */
export interface DeliveryTrace {
  /** The verified event: its type, name and id. */
  verified(event: ReceivedWebhookEvent): void;
  /** Runs a store call (dedup claim, inbox accept) under a child span named `name`. */
  store<T>(name: string, call: () => Promise<T>): Promise<T>;
  /** Runs the handler under its own span (a child of the delivery's, though it runs after the answer). */
  handle<T>(run: () => Promise<T>): Promise<T>;
  /** The answer: its status, the outcome and the rejection or unavailability code. */
  answered(status: number, outcome: DeliveryOutcome, code?: string): void;
}
