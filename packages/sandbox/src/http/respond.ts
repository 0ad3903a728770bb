// The last stage: every answer in the document's envelope, `{status: true, message, data}` or the error
// envelope, as JSON with its length.
import type { ServerResponse } from "node:http";
import { pickCode } from "../spec/error-mapping.js";
import type { SpecOperation } from "../spec/openapi.js";
import { ApiError, type FieldErrors } from "../domain/api-error.js";
import type { HandlerResult } from "../api/route.js";

/** What was answered: the status, the body's text and the error code (null for a success). */
export interface SentAnswer {
  status: number;
  text: string;
  errCode: string | null;
}

function sendJson(
  res: ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
): string | undefined {
  if (res.headersSent) return undefined;
  const text = JSON.stringify(payload);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), ...headers });
  res.end(text);
  return text;
}

/** Never answer a 400 code the operation does not list: fall back to INPUT_MALFORMED or UNKNOWN_ERROR. */
export function narrowErrCode(error: ApiError, operation: SpecOperation | undefined): ApiError {
  const allowed = operation?.errCodes400;
  if (error.status !== 400 || !allowed || allowed.has(error.code)) return error;
  const code = pickCode([error.code], allowed);
  return code === error.code ? error : new ApiError(error.status, code, error.message, error.errors, error.headers);
}

/**
 * The error envelope. The remittance quotation's 400 and 500 name the field errors `error` (an object); everywhere
 * else, and its other statuses, `errors`.
 */
export function errorPayload(error: ApiError, useErrorKey: boolean): Record<string, unknown> {
  if (useErrorKey) {
    const fields: FieldErrors = typeof error.errors === "string" ? { non_field_errors: [error.errors] } : error.errors;
    return { status: false, message: error.message, data: null, error: fields, err_code: error.code };
  }
  return { status: false, message: error.message, data: null, err_code: error.code, errors: error.errors };
}

export function sendResult(res: ServerResponse, result: HandlerResult): SentAnswer {
  const text = sendJson(res, 200, { status: true, message: result.message, data: result.data }) ?? "";
  return { status: 200, text, errCode: null };
}

/** The error answer, its code narrowed to the operation's list and its envelope the operation's. */
export function sendError(res: ServerResponse, operation: SpecOperation | undefined, error: ApiError): SentAnswer {
  const narrowed = narrowErrCode(error, operation);
  const useErrorKey = operation?.errorKeyStatuses.has(String(error.status)) ?? false;
  const text = sendJson(res, error.status, errorPayload(narrowed, useErrorKey), error.headers);
  return { status: error.status, text: text ?? "", errCode: narrowed.code };
}
