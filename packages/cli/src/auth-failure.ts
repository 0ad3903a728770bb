// What a 401 from the sandbox means for the person at the terminal: which credential to check, and the likeliest
// cause (a restarted in-memory sandbox, which generated a new key pair), with where to read the current one.
import type { ErrCode } from "@exchange-kit/types";

/** The credential each 401 code points at (a code missing here gets the general hint). */
const CHECK: Partial<Record<ErrCode, string>> = {
  AUTH_UNAUTHORIZED: "it does not know the API key: check EXCHANGE_API_KEY (or --api-key)",
  AUTH_INVALID_SIGNATURE:
    "it refused the signature: check EXCHANGE_API_SECRET (or --api-secret), and that this machine's clock is right",
};

const LIKELY_CAUSE =
  "Likely cause: the sandbox was restarted. Without --db it keeps everything in memory and, started without " +
  "credentials, generates a new key pair each time: paste the export line its ready output prints, or start it " +
  "with fixed ones (EXCHANGE_API_KEY and EXCHANGE_API_SECRET set, or --api-key and --api-secret).";

/**
 * The message for a 401 answer from the sandbox at `base`: what it refused, the credential to check, the likely
 * cause. Names variables, never their values.
 *
 * @example
 * authFailureMessage("AUTH_INVALID_SIGNATURE", "http://127.0.0.1:4020");
 * // "401 AUTH_INVALID_SIGNATURE from the sandbox at http://127.0.0.1:4020: it refused the signature: check ..."
 */
export function authFailureMessage(errCode: string | undefined, base: string): string {
  const check =
    (errCode !== undefined && CHECK[errCode as ErrCode]) ||
    "check EXCHANGE_API_KEY and EXCHANGE_API_SECRET (or --api-key and --api-secret)";
  return `401 ${errCode ?? "(no err_code)"} from the sandbox at ${base}: ${check}.\n${LIKELY_CAUSE}`;
}
