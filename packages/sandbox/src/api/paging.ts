// Pages of lists and histories: page and per_page within the spec's bounds, absolute next/previous URLs built from
// the request's Host, and the order (created_at from the nearer end of its index, or another field as text).
import { badRequest } from "../domain/api-error.js";
import { operation } from "../spec/openapi.js";
import type { Param, Table } from "../store/store.js";
import type { Ctx } from "./validated-request.js";

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

/** The rows of one organization, narrowed by conditions over the table's columns (e.g. `status = ?`). */
export interface Condition {
  org: string;
  where: string[];
  params: Param[];
}

/**
 * A page in created_at order (ties in creation order), read from the nearer end of the index: OFFSET walks the
 * index entry by entry, so a page past the middle is read in the reverse order with the smaller offset and
 * turned around. The last page of 100k rows then costs what the first page costs.
 */
export async function createdAtPage<T extends { id: string; org: string; created_at: string }>(
  table: Table<T>,
  where: string,
  params: Param[],
  descending: boolean,
  { count, limit, offset }: { count: number; limit: number; offset: number },
): Promise<T[]> {
  // Past the last row: nothing to read (OFFSET would walk every entry of the index to find that out).
  if (offset >= count) return [];
  if (offset * 2 <= count) {
    return await table.page(where, params, descending ? "created_at DESC, seq" : "created_at, seq", limit, offset);
  }
  const rows = Math.min(limit, count - offset);
  const reversed = descending ? "created_at, seq DESC" : "created_at DESC, seq DESC";
  return (await table.page(where, params, reversed, rows, count - offset - rows)).reverse();
}

/**
 * A page of the table's rows matching `condition`, in the request's `ordering` (a field name, `-` prefix for
 * descending; default -created_at). The default order is an indexed SQL ORDER BY created_at with LIMIT/OFFSET;
 * ties keep insertion order. Any other field is sorted as text with numeric collation, over the matching rows.
 */
export async function orderedPage<T extends { id: string; org: string; created_at: string }>(
  ctx: Ctx,
  table: Table<T>,
  condition: Condition,
): Promise<Page<T>> {
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
    const rows = await table.where(where, params);
    // Every row has the same members: the first (in insertion order) tells whether the field exists.
    if (rows.length > 0 && !(field in rows[0]!)) throw invalid();
    const { page, perPage } = pageParams(ctx);
    const offset = (page - 1) * perPage;
    const sorted = sortRows(rows, field, descending);
    return pageOf(ctx, page, perPage, sorted.length, sorted.slice(offset, offset + perPage));
  }
  const { page, perPage } = pageParams(ctx);
  const offset = (page - 1) * perPage;
  const count = condition.where.length === 0 ? await table.countOf(condition.org) : await table.count(where, ...params);
  const results = await createdAtPage(table, where, params, descending, { count, limit: perPage, offset });
  return pageOf(ctx, page, perPage, count, results);
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
