// Records looked up by the ID a request sends, within the caller's organization: another organization's record is
// "not found or access denied", never shown.
import type { ErrCode } from "@exchange-kit/types";
import { badRequest } from "../domain/api-error.js";
import type { CustomerRow } from "../records/rows.js";
import type { Ctx } from "./validated-request.js";

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const CUSTOMER_NOT_FOUND = "Customer not found or access denied";
export const BANK_NOT_FOUND = "Bank not found or access denied";

/**
 * The organization's customer, or "Customer not found or access denied": USR_NOT_FOUND when it does not exist,
 * AUTH_ORG_MISMATCH when it belongs to another organization. `codes` overrides both for operations that list
 * other codes (quotations answer USR_UNVERIFIED: "customer not in the organization").
 */
export async function findCustomer(
  ctx: Ctx,
  id: unknown,
  codes: { missing: ErrCode; otherOrg: ErrCode } = { missing: "USR_NOT_FOUND", otherOrg: "AUTH_ORG_MISMATCH" },
  field = "customer_id",
): Promise<CustomerRow> {
  if (typeof id !== "string" || !UUID.test(id)) throw badRequest(codes.missing, CUSTOMER_NOT_FOUND, field);
  const { row, other } = await ctx.domain.store.customers.owned(ctx.org.id, id.toLowerCase());
  if (!row) throw badRequest(other ? codes.otherOrg : codes.missing, CUSTOMER_NOT_FOUND, field);
  return row;
}
