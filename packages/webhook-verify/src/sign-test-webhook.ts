import { canonicalize, canonicalizeText, computeSignature } from "./signing.js";

export interface SignTestWebhookOptions {
  /**
   * The event to deliver, as an object (`known`/`unknownReason` from a
   * verified event are left out), or as JSON text sent exactly as given
   * (signed over its canonical form, as the service does).
   */
  event: object | string;
  apiKey: string;
  apiSecret: string;
  /** Unix time in seconds for X-TIMESTAMP; defaults to now. */
  timestamp?: number;
}

/** A delivery as the service sends it: post `body` with `headers`. */
export interface SignedTestWebhook {
  body: string;
  headers: { "Content-Type": "application/json"; "X-TIMESTAMP": string; "X-SIGNATURE": string };
}

/**
 * Signs an event the way the service signs its deliveries, for your own
 * tests of a receiver.
 *
 * @example
 * const { body, headers } = await signTestWebhook({
 *   event: { type: "BANK", id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", event: "VERIFIED", timestamp: "2026-03-01T09:30:05Z", metadata: {} },
 *   apiKey, apiSecret,
 * });
 * await fetch("http://127.0.0.1:3000/webhooks/exchange", { method: "POST", headers, body });
 */
export async function signTestWebhook(options: SignTestWebhookOptions): Promise<SignedTestWebhook> {
  const { event, apiKey, apiSecret, timestamp = Math.floor(Date.now() / 1000) } = options;
  let body = event as string;
  let canonicalBody: string;
  if (typeof event === "string") canonicalBody = canonicalizeText(event);
  else {
    const { known: _known, unknownReason: _reason, ...wire } = event as { known?: unknown; unknownReason?: unknown };
    body = canonicalBody = canonicalize(wire);
  }
  return {
    body,
    headers: {
      "Content-Type": "application/json",
      "X-TIMESTAMP": String(timestamp),
      "X-SIGNATURE": await computeSignature({ apiKey, apiSecret, timestamp, canonicalBody }),
    },
  };
}
