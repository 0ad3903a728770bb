// Which answers an earlier attempt's success causes, per operation, as a table; and that every operation whose class
// resolves such answers (x-idempotency safe-by-reference, safe-delete) has its answer known.
import { describe, expect, it } from "vitest";
import { EARLIER_SUCCESS_OPERATIONS, echoesEarlierSuccess, type ErrorAnswer } from "../src/earlier-success.js";
import { listOperations } from "../src/operations.js";

const answer = (changes: Partial<ErrorAnswer>): ErrorAnswer => ({
  status: 400,
  errCode: undefined,
  message: "",
  fieldErrors: {},
  ...changes,
});

type Row = [string, string | undefined, ErrorAnswer, boolean];

const table: Row[] = [
  [
    "createCustomer's message that the reference already exists",
    "createCustomer",
    answer({ message: "Client Reference ID already exists" }),
    true,
  ],
  [
    "createCustomer's 'already exists' under client_reference_id",
    "createCustomer",
    answer({ errCode: "INPUT_MALFORMED", fieldErrors: { client_reference_id: ["This reference already exists."] } }),
    true,
  ],
  [
    "createCustomer's email already in use is not its reference",
    "createCustomer",
    answer({ errCode: "USR_DUPLICATE_CONTACT", message: "Email already in use", fieldErrors: { email: ["x"] } }),
    false,
  ],
  [
    "createCustomer's malformed reference is not its reference existing",
    "createCustomer",
    answer({ errCode: "INPUT_MALFORMED", fieldErrors: { client_reference_id: ["Ensure this field has no more"] } }),
    false,
  ],
  ["deleteBankAccount's BANK_NOT_FOUND", "deleteBankAccount", answer({ errCode: "BANK_NOT_FOUND" }), true],
  [
    "deleteBankAccount's missing customer is not the bank gone",
    "deleteBankAccount",
    answer({ errCode: "USR_NOT_FOUND" }),
    false,
  ],
  [
    "deleteBankAccount's BANK_NOT_FOUND with another status",
    "deleteBankAccount",
    answer({ status: 500, errCode: "BANK_NOT_FOUND" }),
    false,
  ],
  [
    "deleteWallet's wallet-not-found message in non_field_errors",
    "deleteWallet",
    answer({ errCode: "UNKNOWN_ERROR", fieldErrors: { non_field_errors: ["Wallet not found"] } }),
    true,
  ],
  [
    "deleteWallet's customer-not-found message is not the wallet gone",
    "deleteWallet",
    answer({ errCode: "UNKNOWN_ERROR", fieldErrors: { non_field_errors: ["Customer not found or access denied"] } }),
    false,
  ],
  ["deleteWallet's UNKNOWN_ERROR without a message", "deleteWallet", answer({ errCode: "UNKNOWN_ERROR" }), false],
  [
    "getBankAccount's BANK_NOT_FOUND (a read resolves nothing)",
    "getBankAccount",
    answer({ errCode: "BANK_NOT_FOUND" }),
    false,
  ],
  ["a call without an operation", undefined, answer({ errCode: "BANK_NOT_FOUND" }), false],
  ["an operationId named like an Object member", "toString", answer({ errCode: "BANK_NOT_FOUND" }), false],
];

describe("echoesEarlierSuccess", () => {
  it.each(table)("%s", (_, operationId, given, expected) => {
    expect(echoesEarlierSuccess(operationId, given)).toBe(expected);
  });
});

describe("the operations that resolve an earlier success", () => {
  it("are exactly the spec's safe-by-reference and safe-delete operations", () => {
    const resolving = listOperations()
      .filter((op) => op.idempotency === "safe-by-reference" || op.idempotency === "safe-delete")
      .map((op) => op.operationId);
    expect([...EARLIER_SUCCESS_OPERATIONS].sort()).toEqual(resolving.sort());
  });
});
