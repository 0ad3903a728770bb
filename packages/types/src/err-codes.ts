import type { ErrCode } from "./generated/aliases.js";
import { errCodes } from "./generated/err-codes.js";

const known: ReadonlySet<string> = new Set(errCodes);

/** True when `value` is an `err_code` the spec names. */
export function isErrCode(value: unknown): value is ErrCode {
  return typeof value === "string" && known.has(value);
}
