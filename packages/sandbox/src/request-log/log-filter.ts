// Which entries of the log a reader asks for: the query of GET /_sandbox/requests read into a filter (a pure
// function, every refusal a field error), and the filter written as SQL over the log's columns.
import { ApiError } from "../domain/api-error.js";
import type { Param } from "../store/store.js";

export interface RequestLogFilter {
  /** An exact status (404), or a class as its first digit (4 for 4xx). */
  status?: { exact: number } | { classOf: number };
  errCode?: string;
  operationId?: string;
  /** Entries that arrived at or after this ISO 8601 time. */
  since?: string;
  /** Entries that arrived at or before this ISO 8601 time (with since: a date range). */
  until?: string;
  /** Entries numbered above / below this `seq` (cursors for the next page and for following). */
  after?: number;
  before?: number;
  /** "asc": oldest first (what following reads); "desc": newest first (default). */
  order: "asc" | "desc";
  limit: number;
}

export const MAX_PAGE = 1000;
const DEFAULT_PAGE = 100;

type Errors = Record<string, string[]>;

function wholeNumber(text: string, min: number, max: number): number | undefined {
  if (!/^\d{1,15}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}

function statusOf(text: string, errors: Errors): RequestLogFilter["status"] {
  const classMatch = /^([1-5])xx$/i.exec(text);
  if (classMatch) return { classOf: Number(classMatch[1]) };
  const exact = wholeNumber(text, 100, 599);
  if (exact === undefined) errors.status = ["An HTTP status (100 to 599) or a class such as 4xx."];
  return exact === undefined ? undefined : { exact };
}

function timeOf(name: "since" | "until", text: string, errors: Errors): string | undefined {
  const time = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(time)) {
    errors[name] = ["An ISO 8601 date and time, e.g. 2026-05-01T12:00:00Z."];
    return undefined;
  }
  return new Date(time).toISOString();
}

function cursorOf(name: string, text: string, errors: Errors): number | undefined {
  const value = wholeNumber(text, 0, Number.MAX_SAFE_INTEGER);
  if (value === undefined) errors[name] = ["A request number (seq), 0 or more."];
  return value;
}

function orderOf(text: string | null, errors: Errors): RequestLogFilter["order"] {
  if (text === null || text === "desc") return "desc";
  if (text === "asc") return "asc";
  errors.order = ["asc or desc."];
  return "desc";
}

function limitOf(text: string | null, errors: Errors): number {
  if (text === null) return DEFAULT_PAGE;
  const value = wholeNumber(text, 1, MAX_PAGE);
  if (value === undefined) errors.limit = [`A whole number from 1 to ${MAX_PAGE}.`];
  return value ?? DEFAULT_PAGE;
}

const KNOWN = ["status", "err_code", "operation_id", "since", "until", "after", "before", "order", "limit"];

function unknownNames(query: URLSearchParams, errors: Errors): void {
  for (const name of query.keys())
    if (!KNOWN.includes(name)) errors[name] = [`Unknown filter; the filters are ${KNOWN.join(", ")}.`];
}

/**
 * The filter a query asks for; a 400 INPUT_MALFORMED naming each bad parameter otherwise.
 *
 * @example
 * readLogFilter(new URLSearchParams("status=4xx&order=asc&after=20")); // { status: { classOf: 4 }, order: "asc", after: 20, limit: 100 }
 */
export function readLogFilter(query: URLSearchParams): RequestLogFilter {
  const errors: Errors = {};
  unknownNames(query, errors);
  const filter: RequestLogFilter = {
    order: orderOf(query.get("order"), errors),
    limit: limitOf(query.get("limit"), errors),
  };
  const text = (name: string) => {
    const value = query.get(name);
    return value === null || value === "" ? undefined : value;
  };
  const status = text("status");
  if (status !== undefined) filter.status = statusOf(status, errors);
  if (text("err_code") !== undefined) filter.errCode = text("err_code");
  if (text("operation_id") !== undefined) filter.operationId = text("operation_id");
  const since = text("since");
  if (since !== undefined) filter.since = timeOf("since", since, errors);
  const until = text("until");
  if (until !== undefined) filter.until = timeOf("until", until, errors);
  const after = text("after");
  if (after !== undefined) filter.after = cursorOf("after", after, errors);
  const before = text("before");
  if (before !== undefined) filter.before = cursorOf("before", before, errors);
  if (Object.keys(errors).length > 0) throw new ApiError(400, "INPUT_MALFORMED", "Invalid request log filter", errors);
  return filter;
}

/** The filter as an SQL condition over the log's columns (after `org = ?`), with its parameters. */
export function filterSql(filter: RequestLogFilter): { where: string; params: Param[] } {
  const parts: string[] = [];
  const params: Param[] = [];
  const add = (sql: string, ...values: Param[]) => {
    parts.push(sql);
    params.push(...values);
  };
  if (filter.status && "exact" in filter.status) add("status = ?", filter.status.exact);
  if (filter.status && "classOf" in filter.status)
    add("status BETWEEN ? AND ?", filter.status.classOf * 100, filter.status.classOf * 100 + 99);
  if (filter.errCode !== undefined) add("err_code = ?", filter.errCode);
  if (filter.operationId !== undefined) add("operation_id = ?", filter.operationId);
  if (filter.since !== undefined) add("at >= ?", filter.since);
  if (filter.until !== undefined) add("at <= ?", filter.until);
  if (filter.after !== undefined) add("seq > ?", filter.after);
  if (filter.before !== undefined) add("seq < ?", filter.before);
  return { where: parts.length === 0 ? "TRUE" : parts.join(" AND "), params };
}
