// What the dashboard's "move to status" form offers: for each kind the control API moves, the statuses it
// allows and, per status, the reason fields that status's event carries (from the spec's catalog, through
// @exchange-kit/types), each with its allowed values or null for free text.
import { type WebhookEventType, webhookMetadataRules, type WebhookMetadataRule } from "@exchange-kit/types";
import { RECORD_KINDS, RECORD_TYPES } from "../record-kinds.js";

/** The reason fields the control API's transitions take (control-api.ts). */
const SETTABLE = ["failure_reason", "refund_reason", "reason", "rfi_link"];

export interface ReasonField {
  name: string;
  values: readonly string[] | null;
  optional: boolean;
}

/** The reason fields of a status's event that a transition can set. */
export function reasonFields(type: WebhookEventType, status: string): ReasonField[] {
  const events: { readonly [event: string]: { readonly [key: string]: WebhookMetadataRule } } =
    webhookMetadataRules[type];
  const rules = Object.hasOwn(events, status) ? events[status]! : {};
  return Object.entries(rules)
    .filter(([name]) => SETTABLE.includes(name))
    .map(([name, rule]) => ({ name, values: rule.values ?? null, optional: rule.optional === true }));
}

/** Every movable kind of the registry, by its collection: its event type, its statuses, and the reason fields of each. */
export function transitionsMeta() {
  return Object.fromEntries(
    RECORD_TYPES.map((type) => {
      const { collection, statuses } = RECORD_KINDS[type];
      return [
        collection,
        { type, statuses, reasons: Object.fromEntries(statuses.map((s) => [s, reasonFields(type, s)])) },
      ];
    }),
  );
}
