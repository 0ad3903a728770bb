import { ExchangeNetworkError, ExchangeTimeoutError } from "@exchange-kit/client";

/**
 * The message for a call that never reached the sandbox: its URL and how to fix it, instead of the bare
 * "fetch failed". Undefined for any other error.
 *
 * @example
 * unreachableMessage(error, "http://127.0.0.1:4020"); // "cannot reach the sandbox at http://127.0.0.1:4020 (...)"
 */
export function unreachableMessage(error: unknown, base: string): string | undefined {
  if (!(error instanceof ExchangeNetworkError || error instanceof ExchangeTimeoutError)) return undefined;
  let code: string | undefined;
  for (let cause: unknown = error.cause; cause instanceof Error && !code; cause = cause.cause)
    code = (cause as { code?: string }).code;
  return (
    `cannot reach the sandbox at ${base} (${error.message}${code ? `, ${code}` : ""}).\n` +
    "Is it running? Start it with `exchange-kit sandbox`, or point --base-url (or EXCHANGE_BASE_URL) at it."
  );
}
