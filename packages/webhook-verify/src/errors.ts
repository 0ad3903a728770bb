/** Why a delivery was rejected. Each code maps to one step of verification, in the order they run. */
export type WebhookVerificationErrorCode =
  | "MISSING_HEADER"
  | "INVALID_TIMESTAMP"
  | "TIMESTAMP_OUT_OF_TOLERANCE"
  | "INVALID_SIGNATURE"
  | "MALFORMED_BODY"
  | "INVALID_EVENT";

/**
 * A delivery failed verification. Branch on `code`; `message` explains the
 * likely cause for the developer and must not be sent back to the caller
 * (the adapters answer with the code only).
 *
 * @example
 * try {
 *   await verifyWebhook({ body, headers, apiKey, apiSecret });
 * } catch (error) {
 *   if (error instanceof WebhookVerificationError) console.warn(error.code, error.message);
 * }
 */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
  readonly code: WebhookVerificationErrorCode;

  constructor(code: WebhookVerificationErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export function fail(code: WebhookVerificationErrorCode, message: string): never {
  throw new WebhookVerificationError(code, message);
}
