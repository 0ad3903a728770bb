import { ExchangeNetworkError, ExchangeTimeoutError } from "@exchange-kit/client";

/** What went wrong, in a few words: the socket error (connect ECONNREFUSED ..., getaddrinfo ENOTFOUND ...) or the time limit. */
export function unreachableReason(error: ExchangeNetworkError | ExchangeTimeoutError): string {
  if (error instanceof ExchangeTimeoutError) return `no answer within ${error.timeoutMs} ms`;
  for (let cause: unknown = error.cause; cause instanceof Error; cause = cause.cause)
    if ((cause as { code?: string }).code) return cause.message;
  return error.message;
}

/**
 * The message for a call that never reached the sandbox: its URL, the socket's reason and how to fix it, instead
 * of the bare "fetch failed". Undefined for any other error.
 *
 * @example
 * unreachableMessage(error, "http://127.0.0.1:4020");
 * // "cannot reach the sandbox at http://127.0.0.1:4020 (connect ECONNREFUSED 127.0.0.1:4020): is it running? ..."
 */
export function unreachableMessage(error: unknown, base: string): string | undefined {
  if (!(error instanceof ExchangeNetworkError || error instanceof ExchangeTimeoutError)) return undefined;
  return (
    `cannot reach the sandbox at ${base} (${unreachableReason(error)}): is it running? ` +
    "Start it with `exchange-kit sandbox`, or point --base-url (or EXCHANGE_BASE_URL) at it."
  );
}
