// The filters of lists and histories: the creation date range (the history rule: both dates or neither), status
// and customer. The query names other than the dates are the sandbox's guess (the document does not publish them).
import type { ErrCode } from "@exchange-kit/types";
import { ApiError, badRequest } from "../domain/api-error.js";
import type { Table } from "../store/store.js";
import { UUID } from "./lookups.js";
import { type Condition, orderedPage, type Page } from "./paging.js";
import type { Ctx } from "./validated-request.js";

const YMD = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

function isValidYmd(value: string): boolean {
  const match = YMD.exec(value);
  if (!match) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/**
 * start_date / end_date (YYYY-MM-DD, inclusive, by creation date) as a condition on created_at. `together`: the
 * history rule, a lone date is REQ_FIELD_MISSING with errors.date_range. `formatCode`: the code for a date in
 * another format.
 */
export function dateRange(ctx: Ctx, options: { together: boolean; formatCode: ErrCode }, into: Condition): void {
  const start = ctx.query.get("start_date") ?? undefined;
  const end = ctx.query.get("end_date") ?? undefined;
  if (options.together && (start === undefined) !== (end === undefined)) {
    throw new ApiError(400, "REQ_FIELD_MISSING", "start_date and end_date must be sent together", {
      date_range: ["start_date and end_date must be sent together."],
    });
  }
  for (const [name, value] of [
    ["start_date", start],
    ["end_date", end],
  ] as const) {
    if (value !== undefined && !isValidYmd(value))
      throw badRequest(
        options.formatCode,
        `Invalid date format for ${name}`,
        name,
        "Date must be in YYYY-MM-DD format.",
      );
  }
  if (start && end && start > end)
    throw badRequest(
      "INPUT_MALFORMED",
      "start_date is after end_date",
      "date_range",
      "start_date must not be after end_date.",
    );
  // created_at is an ISO timestamp: its day is on or before `end` exactly when it sorts below `end` + "~".
  if (start) {
    into.where.push("created_at >= ?");
    into.params.push(start);
  }
  if (end) {
    into.where.push("created_at < ?");
    into.params.push(`${end}~`);
  }
}

/**
 * The history filters whose query names the document does not publish; the sandbox reads `status`,
 * `customer_id` and `ordering` (a field name, `-` prefix for descending; default -created_at).
 */
export async function historyPage<
  T extends { id: string; org: string; status: string; customer_id: string; created_at: string },
>(ctx: Ctx, table: Table<T>, statuses: readonly string[]): Promise<Page<T>> {
  const condition: Condition = { org: ctx.org.id, where: [], params: [] };
  dateRange(ctx, { together: true, formatCode: "INPUT_MALFORMED" }, condition);
  const status = ctx.query.get("status");
  if (status !== null && !statuses.includes(status)) {
    throw badRequest(
      "INPUT_MALFORMED",
      "Invalid value for status",
      "status",
      `Must be one of: ${statuses.join(", ")}.`,
    );
  }
  const customer = ctx.query.get("customer_id");
  if (customer !== null && !UUID.test(customer))
    throw badRequest("INPUT_MALFORMED", "Invalid value for customer_id", "customer_id", "Must be a valid UUID.");
  if (status !== null) {
    condition.where.push("status = ?");
    condition.params.push(status);
  }
  if (customer !== null) {
    condition.where.push("customer_id = ?");
    condition.params.push(customer.toLowerCase());
  }
  return await orderedPage(ctx, table, condition);
}
