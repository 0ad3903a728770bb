// The request log's filter: the query read into a filter (a table of queries), and the filter as SQL.
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/domain/api-error.js";
import { filterSql, readLogFilter } from "../../src/request-log/log-filter.js";

describe("readLogFilter", () => {
  it.each([
    ["", { order: "desc", limit: 100 }],
    ["status=404", { status: { exact: 404 }, order: "desc", limit: 100 }],
    ["status=4xx", { status: { classOf: 4 }, order: "desc", limit: 100 }],
    ["err_code=USR_DUPLICATE_CONTACT", { errCode: "USR_DUPLICATE_CONTACT", order: "desc", limit: 100 }],
    ["operation_id=createCustomer", { operationId: "createCustomer", order: "desc", limit: 100 }],
    ["since=2026-05-01T12:00:00Z", { since: "2026-05-01T12:00:00.000Z", order: "desc", limit: 100 }],
    ["until=2026-05-01T13:00:00%2B01:00", { until: "2026-05-01T12:00:00.000Z", order: "desc", limit: 100 }],
    ["order=asc&after=20&limit=1000", { order: "asc", after: 20, limit: 1000 }],
    ["before=7&status=", { before: 7, order: "desc", limit: 100 }],
  ])("reads %j", (query, filter) => {
    expect(readLogFilter(new URLSearchParams(query))).toEqual(filter);
  });

  it.each([
    ["status=600", "status"],
    ["status=abc", "status"],
    ["status=6xx", "status"],
    ["since=yesterday", "since"],
    ["since=2026-13-45T00:00:00Z", "since"],
    ["until=today", "until"],
    ["after=-1", "after"],
    ["before=1e3", "before"],
    ["order=up", "order"],
    ["limit=0", "limit"],
    ["limit=1001", "limit"],
    ["operationId=createCustomer", "operationId"],
  ])("refuses %j with a field error naming %s", (query, field) => {
    try {
      readLogFilter(new URLSearchParams(query));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe("INPUT_MALFORMED");
      expect(Object.keys((error as ApiError).errors)).toEqual([field]);
    }
  });
});

describe("filterSql", () => {
  it.each([
    [{ order: "desc", limit: 5 }, "TRUE", []],
    [{ status: { exact: 400 }, order: "asc", limit: 5 }, "status = ?", [400]],
    [{ status: { classOf: 5 }, order: "asc", limit: 5 }, "status BETWEEN ? AND ?", [500, 599]],
    [
      { errCode: "X", operationId: "y", since: "t", after: 1, before: 9, order: "asc", limit: 5 },
      "err_code = ? AND operation_id = ? AND at >= ? AND seq > ? AND seq < ?",
      ["X", "y", "t", 1, 9],
    ],
    [{ since: "a", until: "b", order: "desc", limit: 5 }, "at >= ? AND at <= ?", ["a", "b"]],
  ] as const)("writes %j as a condition", (filter, where, params) => {
    expect(filterSql(filter as never)).toEqual({ where, params });
  });
});
