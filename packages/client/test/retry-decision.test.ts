// The retry policy as a table: each row is a failed attempt, the call around it, and what must follow. No fetch,
// no clock: decideRetry is a pure function of these facts.
import { describe, expect, it } from "vitest";
import { type AttemptFailure, decideRetry, type RetryDecision, type RetrySituation } from "../src/retry-decision.js";

const NOW = Date.parse("2026-03-01T10:00:00Z");

/** Failed attempts, by what happened. */
const failures = {
  "a 503": answer(503, "SYS_SERVICE_UNAVAILABLE", { retryable: true, notProcessed: true }),
  "a 429": answer(429, "TOO_MANY_REQUESTS", { retryable: true, notProcessed: true }),
  "a 500": answer(500, "SYS_INTERNAL_ERROR", { retryable: true }),
  "a 400 UNKNOWN_ERROR": answer(400, "UNKNOWN_ERROR", { retryable: true }),
  "a 400 to fix": answer(400, "REQ_FIELD_MISSING", {}),
  "a duplicate reference": answer(400, "PAYOUT_DUPLICATE_CLIENT_REF_ID", {}),
  "an answer its earlier success causes": answer(400, "BANK_NOT_FOUND", { echoesEarlierSuccess: true }),
  "a not-found of another record": answer(400, "USR_NOT_FOUND", {}),
  "a lost answer": { ...answer(0, undefined, { retryable: true }), status: undefined },
  "a refused connection": { ...answer(0, undefined, { retryable: true, notProcessed: true }), status: undefined },
  "an answer too large to read": answer(200, undefined, { unread: true }),
  "a 503 too large to read": answer(503, undefined, { unread: true, notProcessed: true }),
  "a 503 with Retry-After 3": answer(503, undefined, { retryable: true, notProcessed: true, retryAfter: "3" }),
  "a 503 with Retry-After 0": answer(503, undefined, { retryable: true, notProcessed: true, retryAfter: "0" }),
  "a 503 with Retry-After 5 s from now as a date": answer(503, undefined, {
    retryable: true,
    notProcessed: true,
    retryAfter: "Sun, 01 Mar 2026 10:00:05 GMT",
  }),
  "a 503 with Retry-After an hour": answer(503, undefined, { retryable: true, notProcessed: true, retryAfter: "3600" }),
  "a 503 with Retry-After 999999999": answer(503, undefined, {
    retryable: true,
    notProcessed: true,
    retryAfter: "999999999",
  }),
  "a 503 with Retry-After 1000000000": answer(503, undefined, {
    retryable: true,
    notProcessed: true,
    retryAfter: "1000000000",
  }),
  "a 503 with Retry-After of 400 digits": answer(503, undefined, {
    retryable: true,
    notProcessed: true,
    retryAfter: "9".repeat(400),
  }),
} satisfies Record<string, AttemptFailure>;

function answer(status: number, errCode: string | undefined, facts: Partial<AttemptFailure>): AttemptFailure {
  return { retryable: false, notProcessed: false, unread: false, status, errCode, retryAfter: null, ...facts };
}

/** A safe call on its first attempt, 3 retries allowed, 1 s backoff, no deadline, no jitter. */
const situation = (changes: Partial<RetrySituation>): RetrySituation => ({
  attempt: 1,
  idempotency: "safe",
  canLookUp: false,
  lookedUp: false,
  uncertainBefore: false,
  noRetry: undefined,
  maxRetries: 3,
  retryBaseMs: 1000,
  timeLeftMs: Infinity,
  now: NOW,
  jitter: 0,
  ...changes,
});

const GUARDED = { idempotency: "guarded", canLookUp: true } as const;
const NO_REFERENCE = { idempotency: "guarded", noRetry: "no client_reference_id" } as const;
// A create keyed by its reference (createCustomer) and a delete, on a repeat after an attempt that may have worked.
const BY_REFERENCE = { idempotency: "safe-by-reference", canLookUp: true, attempt: 2, uncertainBefore: true } as const;
const DELETE = { idempotency: "safe-delete", attempt: 2, uncertainBefore: true } as const;
const DELETED_EARLIER: RetryDecision = { action: "deleted-earlier" };
const retry = (delayMs: number, lookUpFirst = false): RetryDecision => ({ action: "retry", delayMs, lookUpFirst });
const giveUp = (escalate = false, notRetriedReason?: string): RetryDecision =>
  notRetriedReason === undefined ? { action: "give-up", escalate } : { action: "give-up", notRetriedReason, escalate };
const AMBIGUOUS: RetryDecision = { action: "ambiguous" };

type Row = [string, keyof typeof failures, Partial<RetrySituation>, RetryDecision];

const table: Row[] = [
  // Safe operations: any retryable failure, backoff doubling from retryBaseMs.
  ["a safe call retries a 503 after the first backoff step", "a 503", {}, retry(1000)],
  ["a safe call doubles the backoff per attempt", "a 503", { attempt: 3 }, retry(4000)],
  ["jitter adds up to a quarter of the step", "a 503", { jitter: 1 }, retry(1250)],
  ["a safe call retries a lost answer", "a lost answer", {}, retry(1000)],
  ["a safe call retries a 500", "a 500", { attempt: 2 }, retry(2000)],
  ["a 5xx that outlasts maxRetries escalates", "a 503", { attempt: 4 }, giveUp(true)],
  ["a 429 that outlasts maxRetries gives up without escalating", "a 429", { attempt: 4 }, giveUp(false)],
  ["a 5xx on the only attempt allowed does not escalate", "a 503", { maxRetries: 0 }, giveUp(false)],
  ["a failure outside the retry class gives up at once", "a 400 to fix", {}, giveUp(false)],
  ["UNKNOWN_ERROR is retried once", "a 400 UNKNOWN_ERROR", {}, retry(1000)],
  ["UNKNOWN_ERROR is not retried twice", "a 400 UNKNOWN_ERROR", { attempt: 2 }, giveUp(false)],
  ["an unread answer of a safe call gives up", "an answer too large to read", {}, giveUp(false)],
  // Retry-After: honoured above the floor, up to a minute, within the deadline.
  ["Retry-After sets the wait", "a 503 with Retry-After 3", {}, retry(3000)],
  ["Retry-After 0 waits the first backoff step", "a 503 with Retry-After 0", { attempt: 3 }, retry(1000)],
  ["Retry-After as a date waits until then", "a 503 with Retry-After 5 s from now as a date", {}, retry(5000)],
  [
    "a Retry-After past a minute gives up with the reason",
    "a 503 with Retry-After an hour",
    {},
    giveUp(false, "Retry-After asks for 3600 s, more than the client waits"),
  ],
  // One rule for every length: nine digits and ten give up alike (ten were once read as garbage and retried).
  [
    "a Retry-After of nine digits gives up with the reason",
    "a 503 with Retry-After 999999999",
    {},
    giveUp(false, "Retry-After asks for 999999999 s, more than the client waits"),
  ],
  [
    "a Retry-After of ten digits gives up with the reason",
    "a 503 with Retry-After 1000000000",
    {},
    giveUp(false, "Retry-After asks for 1000000000 s, more than the client waits"),
  ],
  [
    "a Retry-After too long for a number gives up with the reason",
    "a 503 with Retry-After of 400 digits",
    {},
    giveUp(false, "Retry-After asks for more than 1e308 s, more than the client waits"),
  ],
  [
    "a deadline closer than the wait gives up with the reason",
    "a 503",
    { timeLeftMs: 999 },
    giveUp(false, "the deadline leaves no time for another attempt"),
  ],
  [
    "a Retry-After past the deadline gives up with the reason",
    "a 503 with Retry-After 3",
    { timeLeftMs: 2000 },
    giveUp(false, "the deadline leaves no time for another attempt"),
  ],
  // Unsafe operations: repeated only when the failure proves the request was not processed.
  ["an unsafe call is ambiguous after a lost answer", "a lost answer", { idempotency: "unsafe" }, AMBIGUOUS],
  ["an unsafe call is ambiguous after a 500", "a 500", { idempotency: "unsafe" }, AMBIGUOUS],
  ["an unsafe call is ambiguous after UNKNOWN_ERROR", "a 400 UNKNOWN_ERROR", { idempotency: "unsafe" }, AMBIGUOUS],
  ["an unsafe call retries a refused connection", "a refused connection", { idempotency: "unsafe" }, retry(1000)],
  ["an unsafe call retries a 503", "a 503", { idempotency: "unsafe" }, retry(1000)],
  ["an unsafe call retries a 429", "a 429", { idempotency: "unsafe" }, retry(1000)],
  ["an unsafe call gives up on a 400 to fix", "a 400 to fix", { idempotency: "unsafe" }, giveUp(false)],
  [
    "an unsafe call is ambiguous after an unread answer",
    "an answer too large to read",
    { idempotency: "unsafe" },
    AMBIGUOUS,
  ],
  ["an unread 503 proves nothing was processed", "a 503 too large to read", { idempotency: "unsafe" }, giveUp(false)],
  // Guarded operations (initiate with a client_reference_id): the history is checked before any repeat.
  ["a guarded call retries a 500, looking the order up first", "a 500", GUARDED, retry(1000, true)],
  ["a guarded call retries a lost answer, looking the order up first", "a lost answer", GUARDED, retry(1000, true)],
  [
    "a guarded call looks the order up after an unread answer, ignoring a failed lookup",
    "an answer too large to read",
    GUARDED,
    { action: "look-up", lookupErrorIgnored: true },
  ],
  [
    "a guarded call whose unread answer's order was not found is ambiguous",
    "an answer too large to read",
    { ...GUARDED, lookedUp: true },
    AMBIGUOUS,
  ],
  [
    "a duplicate reference after an uncertain attempt looks the order up",
    "a duplicate reference",
    { ...GUARDED, attempt: 2 },
    { action: "look-up", lookupErrorIgnored: false },
  ],
  [
    "a duplicate reference whose order was not found gives up",
    "a duplicate reference",
    { ...GUARDED, attempt: 2, lookedUp: true },
    giveUp(false),
  ],
  ["a duplicate reference on the first attempt gives up", "a duplicate reference", GUARDED, giveUp(false)],
  [
    "a guarded call without a reference gives up on a retryable failure, saying why",
    "a 500",
    NO_REFERENCE,
    giveUp(false, "no client_reference_id"),
  ],
  ["a guarded call without a reference gives up on a 400 to fix", "a 400 to fix", NO_REFERENCE, giveUp(false)],
  [
    "a guarded call without a reference is ambiguous after an unread answer",
    "an answer too large to read",
    NO_REFERENCE,
    AMBIGUOUS,
  ],
  // Deletes (safe-delete): repeated like safe calls; not-found after an attempt that may have deleted is success.
  ["a delete retries a lost answer without a lookup", "a lost answer", { idempotency: "safe-delete" }, retry(1000)],
  [
    "a delete meeting not-found after an uncertain attempt was done",
    "an answer its earlier success causes",
    DELETE,
    DELETED_EARLIER,
  ],
  [
    "a delete meeting not-found on its first attempt gives up",
    "an answer its earlier success causes",
    { idempotency: "safe-delete" },
    giveUp(false),
  ],
  [
    "a delete meeting not-found after attempts that provably did nothing gives up",
    "an answer its earlier success causes",
    { ...DELETE, uncertainBefore: false },
    giveUp(false),
  ],
  ["a delete meeting another record's not-found gives up", "a not-found of another record", DELETE, giveUp(false)],
  ["a delete is never ambiguous", "an answer too large to read", DELETE, giveUp(false)],
  // Creates keyed by their reference (safe-by-reference): repeated like safe calls; "already exists" on a repeat
  // after an attempt that may have created it is looked up.
  ["a create by reference retries a 500 without looking up first", "a 500", BY_REFERENCE, retry(2000)],
  [
    "a create by reference meeting its reference after an uncertain attempt looks it up",
    "an answer its earlier success causes",
    BY_REFERENCE,
    { action: "look-up", lookupErrorIgnored: false },
  ],
  [
    "a create by reference whose record was not found gives up",
    "an answer its earlier success causes",
    { ...BY_REFERENCE, lookedUp: true },
    giveUp(false),
  ],
  [
    "a create by reference meeting its reference on the first attempt gives up",
    "an answer its earlier success causes",
    { ...BY_REFERENCE, attempt: 1, uncertainBefore: false },
    giveUp(false),
  ],
  [
    "a create by reference without a lookup gives up on its reference",
    "an answer its earlier success causes",
    { ...BY_REFERENCE, canLookUp: false },
    giveUp(false),
  ],
  ["a create by reference is never ambiguous", "an answer too large to read", BY_REFERENCE, giveUp(false)],
];

describe("decideRetry", () => {
  it.each(table)("%s", (_, failure, changes, expected) => {
    expect(decideRetry(failures[failure], situation(changes))).toEqual(expected);
  });

  it("never asks to look the order up for a call that cannot", () => {
    for (const failure of Object.values(failures)) {
      for (const attempt of [1, 2, 4]) {
        for (const idempotency of ["safe", "safe-by-reference", "safe-delete", "guarded", "unsafe"] as const) {
          const decision = decideRetry(failure, situation({ attempt, idempotency }));
          expect(decision.action).not.toBe("look-up");
          if (decision.action === "retry") expect(decision.lookUpFirst).toBe(false);
        }
      }
    }
  });

  it("resolves a delete as done earlier only after an attempt that may have been processed", () => {
    for (const failure of Object.values(failures)) {
      for (const attempt of [1, 2, 4]) {
        for (const idempotency of ["safe", "safe-by-reference", "safe-delete", "guarded", "unsafe"] as const) {
          const decision = decideRetry(failure, situation({ attempt, idempotency, uncertainBefore: false }));
          expect(decision.action).not.toBe("deleted-earlier");
        }
      }
    }
  });

  it("never asks for a second lookup for the same failure", () => {
    for (const failure of Object.values(failures)) {
      for (const attempt of [1, 2, 4]) {
        expect(decideRetry(failure, situation({ ...GUARDED, attempt, lookedUp: true })).action).not.toBe("look-up");
      }
    }
  });
});
