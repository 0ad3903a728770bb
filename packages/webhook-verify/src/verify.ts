import { canonicalizeText, computeSignature } from "@exchange-kit/signing";
import { assertRawBody, bodyText, type WebhookBody } from "./body.js";
import { isCanonicalJson } from "./canonical-check.js";
import { credentialList, type WebhookSecrets } from "./credentials.js";
import { fail } from "./errors.js";
import type { ReceivedWebhookEvent, WebhookEvent } from "./events.js";
import { readHeader, type WebhookHeaders } from "./headers.js";
import { checkSignatureFormat, equalBit } from "./signature.js";
import { checkTimestamp } from "./timestamp.js";
import { type EventValidator, validateEvent } from "./validate.js";

/** How deliveries are checked; shared by verifyWebhook and the adapters. */
export type VerificationSettings = WebhookSecrets & {
  /** Largest accepted distance between X-TIMESTAMP and now, either way, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The current Unix time in seconds; defaults to the clock. For tests. */
  now?: number;
  /** Throw INVALID_EVENT for events the catalog does not know, instead of returning them with `known: false`. */
  strict?: boolean;
  /** Replaces the built-in event validator, e.g. with `zodValidator` from `@exchange-kit/webhook-verify/zod`. */
  validate?: EventValidator;
};

export type VerifyWebhookOptions = VerificationSettings & {
  /** The raw body exactly as received: string, Uint8Array or Buffer. Not a parsed object. */
  body: WebhookBody;
  /** The request headers: `Headers`, Node's `req.headers`, or a plain object in any case. */
  headers: WebhookHeaders;
};

function requireHeader(headers: WebhookHeaders, name: "x-timestamp" | "x-signature"): string {
  return (
    readHeader(headers, name) ??
    fail("MISSING_HEADER", `no ${name.toUpperCase()} header: not a signed delivery, or a proxy dropped it`)
  );
}

/** The texts the service may have signed: the body as received and, if a proxy re-serialized it, its canonical form. */
function signedForms(text: string): string[] {
  if (isCanonicalJson(text)) return [text];
  try {
    const canonical = canonicalizeText(text);
    return canonical === text ? [text] : [text, canonical];
  } catch {
    return [text]; // not JSON: only the raw bytes can match, and the body is reported after the signature
  }
}

function mismatch(forms: number, credentials: number): string {
  const reserialized = forms > 1 ? " The body was re-serialized (e.g. pretty-printed): pass the raw body." : "";
  const which = credentials > 1 ? `the ${credentials} credentials` : "apiKey and apiSecret";
  return `X-SIGNATURE does not match.${reserialized} Check ${which}: the service signs with yours, of this environment`;
}

/**
 * Verifies a webhook delivery and returns its event. In order: the
 * X-TIMESTAMP and X-SIGNATURE headers are present, the timestamp is within
 * the tolerance, the signature matches (constant-time, over the raw body and,
 * if a proxy re-serialized it, over its canonical form), then the body is
 * parsed and validated. Failures throw WebhookVerificationError.
 *
 * @example
 * const event = await verifyWebhook({ body: rawBody, headers: req.headers, apiKey, apiSecret });
 * if (event.known && event.type === "PAYOUT" && event.event === "IN_REVIEW") console.log(event.metadata.reason);
 */
export function verifyWebhook(options: VerifyWebhookOptions & { strict: true }): Promise<WebhookEvent>;
export function verifyWebhook(options: VerifyWebhookOptions): Promise<ReceivedWebhookEvent>;
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<ReceivedWebhookEvent> {
  const credentials = credentialList(options);
  const { toleranceSeconds = 300, now = Date.now() / 1000, strict = false, validate = validateEvent } = options;
  if (!(toleranceSeconds >= 0)) throw new TypeError("toleranceSeconds must be >= 0");
  if (!(now < 1e11)) throw new TypeError("now must be Unix time in seconds");
  assertRawBody(options.body);
  const timestamp = requireHeader(options.headers, "x-timestamp");
  const signature = requireHeader(options.headers, "x-signature");
  checkTimestamp(timestamp, toleranceSeconds, now);
  checkSignatureFormat(signature);
  const text = bodyText(options.body);
  const forms = signedForms(text);
  // Every candidate is computed and compared in constant time: timing does not tell which one matched.
  let matched = 0;
  for (const { apiKey, apiSecret } of credentials) {
    for (const canonicalBody of forms) {
      matched |= equalBit(await computeSignature({ apiKey, apiSecret, timestamp, canonicalBody }), signature);
    }
  }
  if (matched !== 1) fail("INVALID_SIGNATURE", mismatch(forms.length, credentials.length));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    fail("MALFORMED_BODY", "the body is signed but not JSON");
  }
  return validate(json, { strict });
}
