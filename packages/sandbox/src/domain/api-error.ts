import type { ErrCode } from "@exchange-kit/types";

/** Field name (or group key such as non_field_errors, date_range) mapped to its messages; or free text. */
export type FieldErrors = Record<string, string[]> | string;

/**
 * An error answer in the document's envelope. Thrown by handlers and turned into the response by the server,
 * which also narrows a 400 code to the ones the operation lists (see narrowErrCode). `code` is one the spec
 * names, so a mistyped code does not compile; that the operation lists it is checked by test/err-codes.test.ts.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrCode,
    message: string,
    readonly errors: FieldErrors = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const REQUIRED_MESSAGE = "This field is required.";

/** 400 with `errors: {field: [message]}`; the common case. */
export function badRequest(code: ErrCode, message: string, field?: string, fieldMessage = message): ApiError {
  return new ApiError(400, code, message, field ? { [field]: [fieldMessage] } : {});
}

export function missingFields(fields: string[]): ApiError {
  const errors: Record<string, string[]> = {};
  for (const field of fields) errors[field] = [REQUIRED_MESSAGE];
  return new ApiError(
    400,
    "REQ_FIELD_MISSING",
    `Missing required field${fields.length > 1 ? "s" : ""}: ${fields.join(", ")}`,
    errors,
  );
}
