// What the payin and payout modules answer alike: a customer's daily limits, the current rate, and EDD records.
import { randomUUID } from "node:crypto";
import { decimalsOf, RATE_DECIMALS } from "../domain/catalog.js";
import { format, max, parse, sub, ZERO, type Decimal } from "../domain/decimal.js";
import { eddOutcome, stringsIn } from "../domain/magic.js";
import { dailyLimit, hasVerifiedEdd, usedToday } from "../domain/risk.js";
import { badRequest, missingFields } from "../domain/api-error.js";
import type { HandlerResult } from "./route.js";
import type { EddRow } from "../records/rows.js";
import { requireMembers } from "./body-members.js";
import { UUID } from "./lookups.js";
import { corridorOf, oneOf, verifiedCustomer } from "./quotation-request.js";
import type { Ctx, OperationContext } from "./validated-request.js";

export async function limitsOf(
  ctx: OperationContext<"getPayinLimits" | "getPayoutLimits">,
  module: "payin" | "payout",
): Promise<HandlerResult> {
  const customer = await verifiedCustomer(ctx, ctx.params.customer_id);
  const limit = await dailyLimit(ctx.domain, customer, module);
  const used = await usedToday(ctx.domain, customer, module);
  const inr = (d: Decimal) => format(d, decimalsOf("INR"));
  return {
    message: "Limits fetched successfully",
    data: {
      fiat: "INR",
      daily_limit: inr(limit),
      daily_used: inr(used),
      daily_remaining: inr(max(ZERO, sub(limit, used))),
      edd_verified: await hasVerifiedEdd(ctx.domain, customer, module),
    },
  };
}

/** Query parameters (names are the sandbox's choice): asset and fiat, both required. */
export function fetchRate(ctx: Ctx, corridors: Record<string, { rate: string; assets: string[] }>): HandlerResult {
  const asset = ctx.query.get("asset");
  const fiat = ctx.query.get("fiat");
  if (!asset || !fiat) {
    throw missingFields([asset ? undefined : "asset", fiat ? undefined : "fiat"].filter((m) => m !== undefined));
  }
  const corridor = corridorOf(corridors, fiat);
  oneOf("asset", asset, corridor.assets); // answered as asked, like a quotation's asset (chooseInCorridor)
  return {
    message: "Rate fetched successfully",
    data: { asset, fiat: fiat.toUpperCase(), rate: format(parse(corridor.rate), RATE_DECIMALS, "half-up") },
  };
}

function eddView(edd: EddRow) {
  return {
    ...edd.data,
    id: edd.id,
    customer_id: edd.customer_id,
    status: edd.status,
    created_at: edd.created_at,
    updated_at: edd.updated_at,
  };
}

/** EDD body members are not published; the sandbox needs customer_id and keeps the rest as sent. */
export async function saveEdd(
  ctx: OperationContext<"savePayinEdd" | "savePayoutEdd">,
  module: "payin" | "payout",
): Promise<HandlerResult> {
  requireMembers(ctx.body, ["customer_id"]);
  const customer = await verifiedCustomer(ctx, ctx.body.customer_id);
  const now = (await ctx.domain.clock(ctx.org.id)).iso();
  const { customer_id: _ignored, ...data } = ctx.body;
  const edd: EddRow = {
    id: randomUUID(),
    org: ctx.org.id,
    module,
    customer_id: customer.id,
    status: "PROCESSING",
    data,
    created_at: now,
    updated_at: now,
  };
  await ctx.domain.store.edd.put(edd);
  await ctx.domain.plan("EDD", edd, eddOutcome(stringsIn(data)));
  return { message: "EDD submitted successfully", data: eddView(edd) };
}

/** The customer filter is read from the `customer_id` query parameter (its name is not published). */
export async function listEdd(ctx: Ctx, module: "payin" | "payout"): Promise<HandlerResult> {
  const customerId = ctx.query.get("customer_id");
  if (customerId !== null) {
    const owned = UUID.test(customerId)
      ? (await ctx.domain.store.customers.owned(ctx.org.id, customerId.toLowerCase())).row
      : undefined;
    if (!owned) throw badRequest("INPUT_INVALID_PARAMETER", "Invalid customer ID", "customer_id");
  }
  const rows =
    customerId === null
      ? await ctx.domain.store.edd.where("org = ? AND module = ?", [ctx.org.id, module], "created_at, seq")
      : await ctx.domain.store.edd.where(
          "org = ? AND module = ? AND customer_id = ?",
          [ctx.org.id, module, customerId.toLowerCase()],
          "created_at, seq",
        );
  return { message: "EDD records fetched successfully", data: rows.map(eddView) };
}
