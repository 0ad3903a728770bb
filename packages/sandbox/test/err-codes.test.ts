// Every code a handler throws is one its operation lists. The type of ApiError.code (the spec's ErrCode) refuses a
// code the spec does not name; which codes an operation lists is per operation, in the spec, so this test reads
// every `new ApiError` each handler can reach (test/thrown-codes.ts) and compares its code with the operation's
// list. Without it, an unlisted 400 code would be answered as INPUT_MALFORMED or UNKNOWN_ERROR (narrowErrCode)
// and nobody would notice.
import { type ErrCode, isErrCode, type OperationId } from "@exchange-kit/types";
import { beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../src/domain/api-error.js";
import { narrowErrCode } from "../src/http/respond.js";
import { type JsonSchema, operation, operations } from "../src/spec/openapi.js";
import { type ThrownCode, type ThrownCodes, thrownCodes } from "./thrown-codes.js";

/** The err_code enum of an operation's response with this status; undefined when the body does not publish one. */
function listedCodes(operationId: string, status: string): ReadonlySet<string> | undefined {
  const op = operation(operationId);
  if (status === "400") return op.errCodes400;
  const schema = op.responses[status]?.content?.["application/json"]?.schema;
  const narrowed = ((schema?.allOf as JsonSchema[] | undefined)?.[1]?.properties as Record<string, JsonSchema>)
    ?.err_code?.enum;
  return new Set(Array.isArray(narrowed) ? (narrowed as string[]) : []);
}

/**
 * Missing and malformed members, which the shared input checks (requireMembers, paging, dates, ordering) throw for
 * every operation: an operation that lists neither answers them as INPUT_MALFORMED or UNKNOWN_ERROR (narrowErrCode),
 * the documented fallback. Any other code is chosen for one situation and must be one its operation lists.
 */
const GENERIC_INPUT_CODES: ReadonlySet<string> = new Set(["REQ_FIELD_MISSING", "INPUT_MALFORMED"]);

let analysis: ThrownCodes;
let handlers: ReturnType<ThrownCodes["tableEntries"]>;

beforeAll(() => {
  analysis = thrownCodes();
  handlers = analysis.tableEntries("routes.ts", "OPERATION_HANDLERS");
}, 60_000);

function codesOf(id: OperationId): ThrownCode[] {
  const handler = handlers.get(id);
  if (!handler) throw new Error(`No handler for ${id}`);
  return analysis.of(handler).thrown;
}

describe("the codes each handler throws", () => {
  it("are read for every operation of the spec", () => {
    expect([...handlers.keys()].sort()).toEqual(operations.map((op) => op.operationId).sort());
  });

  it("are literal, or values the call sites make literal: nothing the analysis cannot read", () => {
    const unreadable = [...handlers].flatMap(([id, handler]) =>
      analysis.of(handler).unreadable.map((u) => `${id}: ${u}`),
    );
    expect(unreadable).toEqual([]);
  });

  it("are listed by the operation for the status they are thrown with, but for the two generic input codes", () => {
    const unlisted: string[] = [];
    for (const [id, handler] of handlers) {
      for (const { status, code, at } of analysis.of(handler).thrown) {
        const listed = listedCodes(id, status);
        // The remittance quotation's 400 body does not publish its err_code: any code of the spec goes.
        if (listed === undefined || GENERIC_INPUT_CODES.has(code)) continue;
        if (!listed.has(code)) unlisted.push(`${id}: ${status} ${code} (${at})`);
      }
    }
    expect(unlisted).toEqual([]);
  });

  it("reach the caller as a code the operation lists, the generic input codes too", () => {
    const unlisted: string[] = [];
    for (const [id, handler] of handlers) {
      for (const thrown of analysis.of(handler).thrown) {
        const error = new ApiError(Number(thrown.status), thrown.code as ErrCode, "m");
        const answered = narrowErrCode(error, operation(id)).code;
        const listed = listedCodes(id, thrown.status);
        if (listed !== undefined && !listed.has(answered)) unlisted.push(`${id}: ${answered} for ${thrown.code}`);
      }
    }
    expect(unlisted).toEqual([]);
  });
});

describe("the type of a code", () => {
  it("refuses, when type-checked, a code the spec does not name", () => {
    // @ts-expect-error a mistyped code is not an ErrCode (pnpm lint type-checks the tests)
    const error = new ApiError(400, "USR_NOT_FOUNDD", "Customer not found");
    expect(isErrCode(error.code)).toBe(false);
  });
});

describe("reading the codes a handler throws", () => {
  it("follows the calls a handler makes into the helpers it shares with others", () => {
    expect(codesOf("createPayoutQuotation")).toContainEqual(
      expect.objectContaining({
        status: "400",
        code: "BANK_ACCOUNT_UNVERIFIED",
        at: expect.stringMatching(/^api\/quotation-request\.ts:/),
      }),
    );
  });

  it("takes a code prefix from the call site, not every value its type allows", () => {
    const codes = codesOf("initiatePayout").map((t) => t.code);
    expect(codes).toContain("PAYOUT_QUOTATION_EXPIRED");
    expect(codes).not.toContain("PAYIN_QUOTATION_EXPIRED");
  });

  it("takes the codes an operation passes to a shared lookup, and the lookup's defaults where it passes none", () => {
    const payoutAccount = codesOf("createBankAccountForPayout").filter((t) => t.at.startsWith("api/"));
    expect(payoutAccount.map((t) => t.code)).not.toContain("USR_NOT_FOUND");
    expect(codesOf("getCustomer").map((t) => t.code)).toEqual(
      expect.arrayContaining(["USR_NOT_FOUND", "AUTH_ORG_MISMATCH"]),
    );
  });

  it("reads the status each code is thrown with", () => {
    expect(codesOf("createPayinQuotation")).toContainEqual(
      expect.objectContaining({ status: "503", code: "SYS_SERVICE_UNAVAILABLE" }),
    );
  });
});
