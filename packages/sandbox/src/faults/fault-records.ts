// What the fault plan keeps: armed rules and the faults that fired. Both are rows of the sandbox's store (one
// table each), so a plan survives a restart on a database file and every replica of a shared store sees it.
import type { FaultKind, RequestFaultKind, WebhookFaultKind } from "./fault-kinds.js";

/** A request fault targets an operationId (or "*"); a webhook fault an event type (or "*"). */
export type FaultScope = "request" | "webhook";

/** An armed rule: fires on the next `remaining` matching requests (or events) of its organization. */
export interface FaultRuleRow {
  id: string;
  org: string;
  created_at: string;
  scope: FaultScope;
  /** The operationId, the event type, or "*". */
  target: string;
  fault: FaultKind;
  times: number;
  remaining: number;
  delay_ms?: number;
  retry_after?: number;
}

/** A fault that fired, from an armed rule ("plan") or from chaos mode ("chaos"). */
export interface FiredFaultRow {
  id: string;
  org: string;
  created_at: string;
  scope: FaultScope;
  fault: FaultKind;
  source: "plan" | "chaos";
  rule_id: string | null;
  /** Request faults: the operation, method and path of the request. */
  operation?: string;
  method?: string;
  path?: string;
  /** Webhook faults: the event (the sandbox's ID) and its type. */
  event_id?: string;
  event_type?: string;
  delay_ms?: number;
  retry_after?: number;
}

/** A request fault chosen for one request: what the fault stage does with it. */
export interface AppliedFault {
  kind: RequestFaultKind;
  source: "plan" | "chaos";
  /** The armed rule's ID; null for chaos. */
  ruleId: string | null;
  delayMs: number;
  retryAfter?: number;
}

/** A webhook fault chosen for one event. */
export interface AppliedWebhookFault {
  kind: WebhookFaultKind;
  source: "plan" | "chaos";
  ruleId: string | null;
  delayMs: number;
}
