// What payins.initiate and payouts.initiate resolve to: the new order's id, status and client_reference_id, typed.
// The document does not publish the initiate answer, so the client takes them from the answer when it carries
// them and otherwise finds the order in the history by client_reference_id, the lookup it already makes after an
// uncertain failure.
import { ExchangeOrderNotFoundError, type OperationRef } from "./errors.js";
import type { Sent } from "./transport-types.js";

/** The order members every initiate result carries; what the answer must hold for the client to use it as is. */
export interface OrderFields {
  readonly id: string;
  readonly status: string;
  readonly client_reference_id: string | null;
}

/**
 * The order fields of an initiate answer's `data`: present when it holds a non-empty string `id` and a string
 * `status`; `client_reference_id` from the answer when it has one, else the reference the body sent (null when it
 * sent none: PAYOUT events say null then). Undefined when the answer does not identify the order.
 *
 * @example
 * orderInAnswer({ id: "5d2c", status: "PROCESSING" }, "payin-1"); // { id: "5d2c", status: "PROCESSING", client_reference_id: "payin-1" }
 * orderInAnswer({}, "payin-1"); // undefined
 */
export function orderInAnswer(data: unknown, reference: string | undefined): OrderFields | undefined {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return undefined;
  const { id, status, client_reference_id: answered } = data as Record<string, unknown>;
  if (typeof id !== "string" || id === "" || typeof status !== "string" || status === "") return undefined;
  const fromAnswer = typeof answered === "string" || answered === null ? answered : undefined;
  return { id, status, client_reference_id: fromAnswer === undefined ? (reference ?? null) : fromAnswer };
}

/** How one initiate call ended, as resolveInitiatedOrder needs it. */
export interface InitiateOutcome {
  readonly operation: OperationRef;
  /** The call's result: the answer, or the history record an earlier lookup found after an uncertain failure. */
  readonly sent: Sent;
  /** True when `sent` is that history record (no answer to initiate arrived). */
  readonly fromHistory: boolean;
  /** The body's client_reference_id, when it sent one. */
  readonly reference: string | undefined;
  /** Finds the order in the history by `reference`; undefined without a reference. */
  readonly lookup: (() => Promise<Sent | undefined>) | undefined;
  /** The pages of 100 the lookup scans, for the error message. */
  readonly historyLookupPages: number;
}

/** `fields` with the raw data beside them: the object initiate resolves to. */
const withRaw = (fields: OrderFields, raw: unknown) => ({
  id: fields.id,
  status: fields.status,
  client_reference_id: fields.client_reference_id,
  raw: raw as Record<string, unknown>,
});

/**
 * The call's result with `data` made the initiated order: `id`, `status`, `client_reference_id`, and `raw` (the
 * answer's data as received, or the history record when no answer arrived). Throws ExchangeOrderNotFoundError when
 * the answer does not identify the order and the history does not show it: the order was created all the same.
 */
export async function resolveInitiatedOrder(outcome: InitiateOutcome): Promise<Sent> {
  const { sent, reference } = outcome;
  const { data, response } = sent;
  const fields = orderInAnswer(data, reference);
  if (fields !== undefined) return { data: withRaw(fields, data), response };
  const found = outcome.fromHistory ? undefined : await outcome.lookup?.();
  const record = orderInAnswer(found?.data, reference);
  if (record !== undefined) return { data: withRaw(record, data), response };
  throw new ExchangeOrderNotFoundError(
    outcome.operation,
    data,
    reference === undefined
      ? "no client_reference_id was sent, so the history cannot be searched for it"
      : `the first ${outcome.historyLookupPages} page(s) of 100 of the history hold no order with the body's client_reference_id`,
  );
}
