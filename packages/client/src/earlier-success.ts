// Error answers that an earlier attempt's success causes. A create keyed by client_reference_id meets "already
// exists" when it repeats the attempt that created the record; a delete meets not-found when it repeats the attempt
// that deleted it. After an attempt whose outcome is unknown (a lost answer, a timeout, a 5xx), retry-decision.ts
// resolves such an answer instead of reporting a failure. Which answer it is, per operation, is the interface
// document's; an operation's x-idempotency (safe-by-reference, safe-delete) says that it is resolved.
import { ExchangeApiError, type FieldErrors } from "./errors.js";
import type { Failed } from "./failed-attempt.js";
import type { ErrCode, IdempotencyClass } from "./spec.js";

/** What the recognisers read of an error answer. */
export interface ErrorAnswer {
  readonly status: number;
  readonly errCode: string | undefined;
  /** The envelope's message. */
  readonly message: string;
  readonly fieldErrors: FieldErrors;
}

const BANK_NOT_FOUND: ErrCode = "BANK_NOT_FOUND";
const UNKNOWN_ERROR: ErrCode = "UNKNOWN_ERROR";
// E1 lists "Client Reference ID already exists" among customer creation's 400s with no err_code (L274, L635): its
// message, or a message under client_reference_id (errors names the wrong field), is all there is to read.
const REFERENCE_EXISTS = /client reference id already exists/i;
const ALREADY_EXISTS = /already exists/i;
// E10, E11: "errors.non_field_errors holds a wallet-not-found message" (L379), whose text is not published.
const WALLET_NOT_FOUND = /\bwallet\b.*\bnot found\b/i;

const messagesUnder = (answer: ErrorAnswer, key: string): readonly string[] => answer.fieldErrors[key] ?? [];

// The answer each such operation gives to a repeat of its own success, by operationId.
const RECOGNISERS: Readonly<Record<string, (answer: ErrorAnswer) => boolean>> = {
  createCustomer: (a) =>
    REFERENCE_EXISTS.test(a.message) || messagesUnder(a, "client_reference_id").some((m) => ALREADY_EXISTS.test(m)),
  deleteBankAccount: (a) => a.errCode === BANK_NOT_FOUND,
  deleteWallet: (a) =>
    a.errCode === UNKNOWN_ERROR && messagesUnder(a, "non_field_errors").some((m) => WALLET_NOT_FOUND.test(m)),
};

/** The operations whose answer to a repeat of their own success is known (each must be of a resolving class). */
export const EARLIER_SUCCESS_OPERATIONS: readonly string[] = Object.keys(RECOGNISERS);

/** True for the classes whose calls resolve an answer their earlier success causes: safe-by-reference, safe-delete. */
export const resolvesEarlierSuccess = (idempotency: IdempotencyClass): boolean =>
  idempotency === "safe-by-reference" || idempotency === "safe-delete";

/**
 * Whether `answer` (a 400) is what an earlier success of `operationId` causes: createCustomer's "Client Reference ID
 * already exists", deleteBankAccount's BANK_NOT_FOUND, deleteWallet's wallet-not-found message. Other operations and
 * other answers (USR_NOT_FOUND: the customer, not the record, is missing) are not.
 *
 * @example
 * echoesEarlierSuccess("deleteBankAccount", { status: 400, errCode: "BANK_NOT_FOUND", message: "", fieldErrors: {} }); // true
 * echoesEarlierSuccess("deleteBankAccount", { status: 400, errCode: "USR_NOT_FOUND", message: "", fieldErrors: {} }); // false
 */
export function echoesEarlierSuccess(operationId: string | undefined, answer: ErrorAnswer): boolean {
  const known = operationId !== undefined && Object.hasOwn(RECOGNISERS, operationId);
  return known && answer.status === 400 && RECOGNISERS[operationId]!(answer);
}

/**
 * The failed attempt with `echoesEarlierSuccess` set for a call of a resolving class; the failure as it is for any
 * other call, or when the answer was no error envelope. Builds the attempt's error to read its answer: only for a 400
 * of a resolving call, a rare path.
 */
export function withEarlierSuccess(failed: Failed, operationId: string | undefined, idempotency: IdempotencyClass) {
  if (!resolvesEarlierSuccess(idempotency) || failed.status !== 400) return failed;
  const error = failed.make({ attempts: 0 });
  if (!(error instanceof ExchangeApiError)) return failed;
  const { message: text } = error.body as { message?: unknown };
  const message = typeof text === "string" ? text : "";
  const answer = { status: error.status, errCode: error.errCode, message, fieldErrors: error.fieldErrors };
  return { ...failed, echoesEarlierSuccess: echoesEarlierSuccess(operationId, answer) };
}
