// Initiating an order with a quotation, the same for payins and payouts: the quotation must be unused and
// unexpired, the client reference new; the order takes over the quotation's terms and marks it used.
import { randomUUID } from "node:crypto";
import { badRequest } from "../domain/api-error.js";
import type { OrderTerms } from "../records/rows.js";
import type { Table } from "../store/store.js";
import type { Ctx } from "./validated-request.js";
import type { OrderPrefix } from "./quotation-request.js";

/** The terms an order takes over from the quotation it is initiated with. */
function orderTerms(q: OrderTerms): OrderTerms {
  return {
    customer_id: q.customer_id,
    bank_id: q.bank_id,
    asset: q.asset,
    fiat: q.fiat,
    network: q.network,
    sending_amount: q.sending_amount,
    rate: q.rate,
    receiving_amount: q.receiving_amount,
    wallet_address: q.wallet_address,
  };
}

async function expired(ctx: Ctx, expiryTime: string): Promise<boolean> {
  return (await ctx.domain.clock(ctx.org.id)).nowMs() > Date.parse(expiryTime);
}

/** {PREFIX}_DUPLICATE_CLIENT_REF_ID when another order of the organization has this client_reference_id. */
export async function checkReferenceUnused(
  orders: Pick<Table<{ id: string; org: string }>, "first">,
  orgId: string,
  reference: string,
  prefix: OrderPrefix,
): Promise<void> {
  if (await orders.first("org = ? AND client_ref = ?", orgId, reference)) {
    throw badRequest(`${prefix}_DUPLICATE_CLIENT_REF_ID`, "client_reference_id already exists", "client_reference_id");
  }
}

/** A quotation backs one order ({PREFIX}_QUOTATION_LINKED), until its expiry_time ({PREFIX}_QUOTATION_EXPIRED). */
export async function checkQuotationUsable(
  ctx: Ctx,
  quotation: { order_id?: string; expiry_time: string },
  prefix: OrderPrefix,
): Promise<void> {
  if (quotation.order_id)
    throw badRequest(`${prefix}_QUOTATION_LINKED`, "Quotation already backs another order", "quotation_id");
  if (await expired(ctx, quotation.expiry_time))
    throw badRequest(`${prefix}_QUOTATION_EXPIRED`, "Quotation expired; create a new one", "quotation_id");
}

/** The members every new order has: a new ID, the quotation's terms, PROCESSING since now. */
export async function orderStart(ctx: Ctx, quotation: OrderTerms & { id: string }) {
  const now = (await ctx.domain.clock(ctx.org.id)).iso();
  return {
    id: randomUUID(),
    org: ctx.org.id,
    quotation_id: quotation.id,
    ...orderTerms(quotation),
    status: "PROCESSING" as const,
    failure_reason: null,
    created_at: now,
    updated_at: now,
  };
}

/** Stores the order and marks its quotation as backing it. */
export async function saveOrder<
  Q extends { id: string; org: string; order_id?: string },
  O extends { id: string; org: string },
>(quotations: Table<Q>, quotation: Q, orders: Table<O>, order: O): Promise<void> {
  quotation.order_id = order.id;
  await quotations.put(quotation);
  await orders.put(order);
}
