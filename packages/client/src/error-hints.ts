// The next step an error's message names: which credential or setting to check, and the usual cause. Pure
// functions of the error's facts, tested as tables (test/error-hints.test.ts). They name options and environment
// variables, never their values: the key and the secret stay out of every message.

// A sandbox that keeps its state in memory (the default) issues a new key and secret each time it starts, so the
// ones a program was given stop working after a restart: the most common 401 while developing.
const RESTARTED_SANDBOX =
  "the usual cause is a sandbox restarted in memory, which hands out a new key and secret at each start: " +
  "use the ones it printed last";

/**
 * What to check after a 401, by its err_code: the credential at fault (option and environment variable) and the
 * usual cause.
 *
 * @example
 * authHint("AUTH_UNAUTHORIZED"); // "check apiKey (EXCHANGE_API_KEY): ..."
 */
export function authHint(errCode: string | undefined): string {
  switch (errCode) {
    case "AUTH_INVALID_SIGNATURE":
      return (
        "check apiSecret (EXCHANGE_API_SECRET): it must be the secret issued with apiKey (EXCHANGE_API_KEY) in this " +
        `environment; ${RESTARTED_SANDBOX}. A clock more than 300 s off the service's also gives this`
      );
    case "AUTH_UNAUTHORIZED":
      return (
        "check apiKey (EXCHANGE_API_KEY): it is unknown, inactive or from the other environment (sandbox and " +
        `production keys are separate); ${RESTARTED_SANDBOX}`
      );
    case "AUTH_MISSING_HEADERS":
      return (
        "the client signs every request with X-API-KEY, X-TIMESTAMP and X-SIGNATURE, so something between it and " +
        "the service removed them: check baseUrl (EXCHANGE_BASE_URL) and any proxy on the way"
      );
    default:
      return `check apiKey and apiSecret (EXCHANGE_API_KEY, EXCHANGE_API_SECRET); ${RESTARTED_SANDBOX}`;
  }
}

/**
 * What to check when no answer came from `baseUrl`: whether the service runs there (`connected` false: the
 * connection was refused or the host name did not resolve), and where the URL came from.
 *
 * @example
 * unreachableHint("http://127.0.0.1:4020", false); // "could not connect to http://127.0.0.1:4020: is ..."
 */
export function unreachableHint(baseUrl: string, connected: boolean): string {
  const where = "The URL is the baseUrl option, or EXCHANGE_BASE_URL when the option is left out";
  return connected
    ? `the connection to ${baseUrl} failed before an answer arrived; if it keeps failing, check that it is the ` +
        `service's URL. ${where}`
    : `could not connect to ${baseUrl}: is the service (or the sandbox: npx @exchange-kit/cli sandbox) running ` +
        `there? ${where}`;
}
