// The parts of `exchange-kit logs` that decide: lines, flags, the follower's cursor and the event diff.
import { describe, expect, it } from "vitest";
import { intervalFlag } from "../src/commands/logs.js";
import { itemLine, newItems, nothingPrinted, type EventView } from "../src/commands/logs/event-lines.js";
import { droppedSince, nextCursor, type RequestLogPage } from "../src/commands/logs/follow.js";
import { clockTime, filterQuery, limitFlag, requestLine, sinceFlag } from "../src/commands/logs/request-lines.js";
import { UsageError } from "../src/output.js";

const at = new Date(2026, 4, 1, 12, 1, 2).toISOString();
const entry = (over: Record<string, unknown> = {}) =>
  ({
    seq: 1,
    at,
    method: "POST",
    path: "/cms/api/v1/customer/create",
    query: "",
    operation_id: "createCustomer",
    route: "/cms/api/v1/customer/create",
    status: 400,
    err_code: "USR_DUPLICATE_CONTACT",
    latency_ms: 4.2,
    request: { text: "", bytes: 0, truncated: false },
    response: { text: "", bytes: 0, truncated: false },
    ...over,
  }) as Parameters<typeof requestLine>[0];

describe("requestLine", () => {
  it.each([
    [entry(), "12:01:02 POST createCustomer 400 USR_DUPLICATE_CONTACT 4 ms"],
    [entry({ status: 200, err_code: null, latency_ms: 0.4 }), "12:01:02 POST createCustomer 200 0 ms"],
    [
      entry({ operation_id: null, path: "/_sandbox/clock/advance", status: 200, err_code: null }),
      "12:01:02 POST /_sandbox/clock/advance 200 4 ms",
    ],
    [entry({ fault: "timeout" }), "12:01:02 POST createCustomer 400 USR_DUPLICATE_CONTACT 4 ms (fault timeout)"],
  ])("writes %j as one line", (logged, line) => {
    expect(requestLine(logged)).toBe(line);
  });
});

describe("flags", () => {
  const now = Date.parse("2026-05-01T12:00:00Z");
  it.each([
    ["30s", "2026-05-01T11:59:30.000Z"],
    ["10m", "2026-05-01T11:50:00.000Z"],
    ["2h", "2026-05-01T10:00:00.000Z"],
    ["1d", "2026-04-30T12:00:00.000Z"],
    ["2026-05-01T08:00:00Z", "2026-05-01T08:00:00.000Z"],
  ])("--since %s is %s", (flag, iso) => {
    expect(sinceFlag(flag, now)).toBe(iso);
  });

  it.each(["yesterday", "10", "5w", "2026-05-01"])("--since %s is a usage error", (flag) => {
    expect(() => sinceFlag(flag, now)).toThrow(UsageError);
  });

  it("reads the filters into the log call's query", () => {
    expect(
      filterQuery({ status: "4xx", "err-code": "USR_NOT_FOUND", "operation-id": "getCustomer", since: "1m" }, now),
    ).toEqual({
      status: "4xx",
      err_code: "USR_NOT_FOUND",
      operation_id: "getCustomer",
      since: "2026-05-01T11:59:00.000Z",
    });
  });

  it.each([
    [limitFlag, "0"],
    [limitFlag, "1001"],
    [intervalFlag, "10"],
    [intervalFlag, "soon"],
  ])("%o refuses %s", (flag, value) => {
    expect(() => flag(value)).toThrow(UsageError);
  });
});

describe("following the request log", () => {
  const page = (seqs: number[], oldest: number, latest: number): RequestLogPage => ({
    count: seqs.length,
    results: seqs.map((seq) => entry({ seq })),
    oldest_seq: oldest,
    latest_seq: latest,
  });

  it.each([
    ["an empty page keeps the cursor", page([], 0, 0), 0, 10, 0],
    ["a partial page moves to its last entry", page([5, 6], 1, 6), 4, 10, 6],
    ["a partial filtered page moves to the newest kept", page([5], 1, 9), 4, 10, 9],
    ["a full page moves to its last entry only", page([5, 6], 1, 9), 4, 2, 6],
  ])("%s", (_what, answered, cursor, limit, next) => {
    expect(nextCursor(answered, cursor, limit)).toBe(next);
  });

  it.each([
    [page([21], 21, 30), 0, 20],
    [page([21], 21, 30), 20, 0],
    [page([], 0, 0), 0, 0],
  ])("counts the entries dropped after the cursor", (answered, cursor, dropped) => {
    expect(droppedSince(answered, cursor)).toBe(dropped);
  });
});

describe("the event diff", () => {
  const attempt = (n: number, code: number | null) => ({
    attempt: n,
    at,
    status_code: code,
    error: code === 200 ? null : code === null ? "connect ECONNREFUSED" : `receiver answered ${code}`,
    duration_ms: 3,
  });
  const event = (
    attempts: Array<ReturnType<typeof attempt> & { response_body?: string }>,
    state: string,
    next?: string,
  ): EventView =>
    ({
      id: "ev-1",
      created_at: at,
      body: { type: "CUSTOMER", id: "cu-1", event: "VERIFIED", timestamp: at, metadata: {} },
      deliveries: [
        { id: "d-1", reason: "initial", url: "http://127.0.0.1:1/hooks", state, attempts, next_attempt_at: next },
      ],
    }) as EventView;

  it("prints an event once and each attempt once, as they appear", () => {
    const printed = nothingPrinted();
    const next = new Date(2026, 4, 1, 12, 1, 3).toISOString();
    const first = newItems([event([attempt(1, 500)], "pending", next)], printed).map(itemLine);
    expect(first).toEqual([
      "12:01:02 CUSTOMER VERIFIED cu-1 event ev-1",
      "12:01:02   attempt 1 → 500 3 ms (initial, http://127.0.0.1:1/hooks), next retry 12:01:03",
    ]);
    const second = newItems([event([attempt(1, 500), attempt(2, 200)], "delivered")], printed).map(itemLine);
    expect(second).toEqual(["12:01:02   attempt 2 → 200 3 ms (initial, http://127.0.0.1:1/hooks), delivered"]);
    expect(newItems([event([attempt(1, 500), attempt(2, 200)], "delivered")], printed)).toEqual([]);
  });

  it("shows the start of the receiver's answer on the attempt's line", () => {
    const answered = { ...attempt(1, 401), response_body: '{"error":\n  "signature mismatch"}' };
    const line = newItems([event([answered], "failed")], nothingPrinted()).map(itemLine)[1];
    expect(line).toBe(
      '12:01:02   attempt 1 → 401 3 ms (initial, http://127.0.0.1:1/hooks), failed body: {"error": "signature mismatch"}',
    );
  });

  it("cuts a long answer on the attempt's line at 80 characters", () => {
    const answered = { ...attempt(1, 500), response_body: "x".repeat(200) };
    const line = newItems([event([answered], "failed")], nothingPrinted()).map(itemLine)[1];
    expect(line).toMatch(/failed body: x{80}…$/);
  });

  it("says why an attempt got no answer", () => {
    const line = newItems([event([attempt(1, null)], "failed")], nothingPrinted()).map(itemLine)[1];
    expect(line).toBe(
      "12:01:02   attempt 1 → no answer (connect ECONNREFUSED) 3 ms (initial, http://127.0.0.1:1/hooks), failed",
    );
  });

  it("writes the clock time in the local zone", () => {
    expect(clockTime(new Date(2026, 0, 2, 3, 4, 5).toISOString())).toBe("03:04:05");
  });
});
