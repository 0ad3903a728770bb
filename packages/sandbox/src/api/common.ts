// Helpers shared by the operation handlers: lookups scoped to the organization, pagination with absolute URLs,
// the history date-range rule, and reading body members.
import { ApiError, badRequest, missingFields } from "../http/api-error.js";
import type { RequestContext, RequestValues } from "../http/route.js";
import type { ErrCode } from "@exchange-kit/types";
import type { Domain } from "../domain/domain.js";
import type { CustomerRow } from "../store/records.js";
import type { Param, Table } from "../store/store.js";
import { operation } from "../spec/openapi.js";

/** What the helpers shared by all handlers read: the organization, domain, path and query; never the body. */
export type Ctx = RequestContext<Domain, unknown, RequestValues>;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const CUSTOMER_NOT_FOUND = "Customer not found or access denied";
export const BANK_NOT_FOUND = "Bank not found or access denied";

/** A non-empty string member of the body, or undefined. */
export function text<B extends object>(body: B, key: keyof B & string): string | undefined {
  const value: unknown = body[key];
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/** Throws REQ_FIELD_MISSING naming every absent (or blank) member. */
export function requireMembers<B extends object>(body: B, keys: ReadonlyArray<keyof B & string>): void {
  const missing = keys.filter((key) => {
    const value: unknown = body[key];
    return value === undefined || value === null || value === "";
  });
  if (missing.length > 0) throw missingFields(missing);
}

/**
 * The organization's customer, or "Customer not found or access denied": USR_NOT_FOUND when it does not exist,
 * AUTH_ORG_MISMATCH when it belongs to another organization. `codes` overrides both for operations that list
 * other codes (quotations answer USR_UNVERIFIED: "customer not in the organization").
 */
export function findCustomer(
  ctx: Ctx,
  id: unknown,
  codes: { missing: ErrCode; otherOrg: ErrCode } = { missing: "USR_NOT_FOUND", otherOrg: "AUTH_ORG_MISMATCH" },
  field = "customer_id",
): CustomerRow {
  if (typeof id !== "string" || !UUID.test(id)) throw badRequest(codes.missing, CUSTOMER_NOT_FOUND, field);
  const { row, other } = ctx.domain.store.customers.owned(ctx.org.id, id.toLowerCase());
  if (!row) throw badRequest(other ? codes.otherOrg : codes.missing, CUSTOMER_NOT_FOUND, field);
  return row;
}

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** The bounds of `page` and `per_page`: the spec's own (the shared Page and PerPage parameters). */
export const PAGING = pagingBounds();

function pagingBounds(): { page: { min: number; max: number }; perPage: { min: number; max: number } } {
  const schemaOf = (name: string) =>
    (operation("listCustomers").parameters.find((p) => p.name === name)?.schema ?? {}) as {
      minimum?: number;
      maximum?: number;
    };
  const page = schemaOf("page");
  const perPage = schemaOf("per_page");
  return {
    page: { min: page.minimum ?? 1, max: page.maximum ?? Number.MAX_SAFE_INTEGER },
    perPage: { min: perPage.minimum ?? 10, max: perPage.maximum ?? 100 },
  };
}

/**
 * What is wrong with a paging value, or undefined when it is fine. `value` is a number where the spec's schema
 * has already coerced it, or the query string's text on sandbox-only routes: only decimal digits make an
 * integer there ("1e3", "0x10", "1.0" and "" do not).
 */
export function pagingValueError(value: unknown, bounds: { min: number; max: number }): string | undefined {
  const n = typeof value === "string" && /^-?[0-9]+$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n)) return "Must be of type integer.";
  if (n < bounds.min) return `Ensure this value is greater than or equal to ${bounds.min}.`;
  if (n > bounds.max) return `Ensure this value is less than or equal to ${bounds.max}.`;
  return undefined;
}

/** page 1..PAGING.page.max (default 1), per_page 10..100 (default 20); checked again here for sandbox-only routes. */
function pageParams(ctx: Ctx): { page: number; perPage: number } {
  const values = { page: ctx.params.page ?? 1, per_page: ctx.params.per_page ?? 20 };
  for (const [name, bounds] of [
    ["page", PAGING.page],
    ["per_page", PAGING.perPage],
  ] as const) {
    const problem = pagingValueError(values[name], bounds);
    if (problem) throw badRequest("INPUT_MALFORMED", `Invalid value for ${name}`, name, problem);
  }
  return { page: Number(values.page), perPage: Number(values.per_page) };
}

/** The page envelope with absolute next/previous URLs built from the request's Host, keeping its other query parameters. */
function pageOf<T>(ctx: Ctx, page: number, perPage: number, count: number, results: T[]): Page<T> {
  const start = (page - 1) * perPage;
  const link = (target: number) => {
    const query = new URLSearchParams(ctx.query);
    query.set("page", String(target));
    query.set("per_page", String(perPage));
    return `${ctx.origin}${ctx.path}?${query.toString()}`;
  };
  return {
    count,
    next: start + perPage < count ? link(page + 1) : null,
    previous: page > 1 ? link(Math.min(page - 1, Math.max(1, Math.ceil(count / perPage)))) : null,
    results,
  };
}

/** A page of `items` (a short list already in memory, e.g. one customer's bank accounts). */
export function paginate<T>(ctx: Ctx, items: T[]): Page<T> {
  const { page, perPage } = pageParams(ctx);
  const start = (page - 1) * perPage;
  return pageOf(ctx, page, perPage, items.length, items.slice(start, start + perPage));
}

const YMD = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export function isValidYmd(value: string): boolean {
  const match = YMD.exec(value);
  if (!match) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** The rows of one organization, narrowed by conditions over the table's columns (e.g. `status = ?`). */
export interface Condition {
  org: string;
  where: string[];
  params: Param[];
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
 * A page in created_at order (ties in creation order), read from the nearer end of the index: OFFSET walks the
 * index entry by entry, so a page past the middle is read in the reverse order with the smaller offset and
 * turned around. The last page of 100k rows then costs what the first page costs.
 */
function createdAtPage<T extends { id: string; org: string; created_at: string }>(
  table: Table<T>,
  where: string,
  params: Param[],
  descending: boolean,
  { count, limit, offset }: { count: number; limit: number; offset: number },
): T[] {
  // Past the last row: nothing to read (OFFSET would walk every entry of the index to find that out).
  if (offset >= count) return [];
  if (offset * 2 <= count) {
    return table.page(where, params, descending ? "created_at DESC, seq" : "created_at, seq", limit, offset);
  }
  const rows = Math.min(limit, count - offset);
  const reversed = descending ? "created_at, seq DESC" : "created_at DESC, seq DESC";
  return table.page(where, params, reversed, rows, count - offset - rows).reverse();
}

/**
 * A page of the table's rows matching `condition`, in the request's `ordering` (a field name, `-` prefix for
 * descending; default -created_at). The default order is an indexed SQL ORDER BY created_at with LIMIT/OFFSET;
 * ties keep insertion order. Any other field is sorted as text with numeric collation, over the matching rows.
 */
export function orderedPage<T extends { id: string; org: string; created_at: string }>(
  ctx: Ctx,
  table: Table<T>,
  condition: Condition,
): Page<T> {
  const ordering = ctx.query.get("ordering") ?? "-created_at";
  const descending = ordering.startsWith("-");
  const field = descending ? ordering.slice(1) : ordering;
  const where = ["org = ?", ...condition.where].join(" AND ");
  const params = [condition.org, ...condition.params];
  const invalid = () =>
    badRequest(
      "INPUT_MALFORMED",
      "Invalid value for ordering",
      "ordering",
      "Must be a field name, optionally prefixed with -.",
    );
  if (!/^[a-z_]+$/.test(field)) throw invalid();
  if (field !== "created_at") {
    const rows = table.where(where, params);
    // Every row has the same members: the first (in insertion order) tells whether the field exists.
    if (rows.length > 0 && !(field in rows[0]!)) throw invalid();
    const { page, perPage } = pageParams(ctx);
    const offset = (page - 1) * perPage;
    const sorted = sortRows(rows, field, descending);
    return pageOf(ctx, page, perPage, sorted.length, sorted.slice(offset, offset + perPage));
  }
  const { page, perPage } = pageParams(ctx);
  const offset = (page - 1) * perPage;
  const count = condition.where.length === 0 ? table.countOf(condition.org) : table.count(where, ...params);
  const results = createdAtPage(table, where, params, descending, { count, limit: perPage, offset });
  return pageOf(ctx, page, perPage, count, results);
}

/**
 * The history filters whose query names the document does not publish; the sandbox reads `status`,
 * `customer_id` and `ordering` (a field name, `-` prefix for descending; default -created_at).
 */
export function historyPage<
  T extends { id: string; org: string; status: string; customer_id: string; created_at: string },
>(ctx: Ctx, table: Table<T>, statuses: readonly string[]): Page<T> {
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
  return orderedPage(ctx, table, condition);
}

const collator = new Intl.Collator("en", { numeric: true });

function sortRows<T>(rows: T[], field: string, descending: boolean): T[] {
  const key = (row: T) => (row as Record<string, unknown>)[field];
  return rows.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    const order =
      typeof x === "number" && typeof y === "number" ? x - y : collator.compare(String(x ?? ""), String(y ?? ""));
    return descending ? -order : order;
  });
}
