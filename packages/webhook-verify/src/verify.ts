import { isCanonicalJson } from "./canonical-check.js";
import { credentialList, type WebhookSecrets } from "./credentials.js";
import { fail } from "./errors.js";
import type { ReceivedWebhookEvent, WebhookEvent } from "./events.js";
import { requireHeader, type WebhookHeaders } from "./headers.js";
import { equalBit } from "./signature.js";
import { canonicalizeText, computeSignature } from "./signing.js";
import { type EventValidator, validateEvent } from "./validate.js";

/** The raw body exactly as received. A Node `Buffer` is a `Uint8Array`. */
export type WebhookBody = string | Uint8Array | ArrayBuffer;

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

const UNIX_SECONDS = /^\d{1,15}$/;
const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;
let decoder: TextDecoder | undefined;

/**
 * Verifies a webhook delivery and returns its event. In order: the
 * X-TIMESTAMP and X-SIGNATURE headers are present, the timestamp is within
 * the tolerance, the signature matches (constant-time, over the raw body and,
 * if a proxy re-serialized it, over its canonical form), then the body is
 * parsed and validated. Failures throw WebhookVerificationError, whose
 * message names the likely cause.
 *
 * @example
 * const event = await verifyWebhook({ body: rawBody, headers: req.headers, apiKey, apiSecret });
 * if (event.known && event.type === "PAYOUT" && event.event === "IN_REVIEW") console.log(event.metadata.reason);
 */
export function verifyWebhook(options: VerifyWebhookOptions & { strict: true }): Promise<WebhookEvent>;
export function verifyWebhook(options: VerifyWebhookOptions): Promise<ReceivedWebhookEvent>;
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<ReceivedWebhookEvent> {
  const credentials = credentialList(options);
  const { body, toleranceSeconds = 300, now = Date.now() / 1000, strict = false, validate = validateEvent } = options;
  if (!(toleranceSeconds >= 0)) throw new TypeError("toleranceSeconds must be >= 0");
  if (!(now < 1e11)) throw new TypeError("now must be Unix time in seconds");
  // The raw bytes, not a parsed object or nothing at all: the signature covers the exact bytes.
  if (!(typeof body === "string" || body instanceof Uint8Array || body instanceof ArrayBuffer)) {
    fail(
      "MALFORMED_BODY",
      `${body == null ? "no body" : "the body was parsed before verification"}: pass the raw body ` +
        "(string, Uint8Array or Buffer); in Express, mount the handler before express.json()",
    );
  }
  const timestamp = requireHeader(options.headers, "x-timestamp");
  const signature = requireHeader(options.headers, "x-signature");
  if (!UNIX_SECONDS.test(timestamp)) {
    fail("INVALID_TIMESTAMP", `X-TIMESTAMP must be Unix seconds, got "${timestamp.slice(0, 32)}"`);
  }
  // Which way and by how much: old deliveries are delayed or replayed, future ones mean this clock is behind.
  const age = Math.floor(now) - Number(timestamp);
  if (Math.abs(age) > toleranceSeconds) {
    const why = age > 0 ? "a delayed or replayed delivery, or this clock is ahead" : "this clock is behind";
    fail(
      "TIMESTAMP_OUT_OF_TOLERANCE",
      `X-TIMESTAMP is ${Math.abs(age)} s in the ${age > 0 ? "past" : "future"} (tolerance ${toleranceSeconds} s): ` +
        `${why}${timestamp.length > 12 ? "; it looks like milliseconds" : ""}`,
    );
  }
  // A Base64 HMAC-SHA256 digest; the usual mistakes are named.
  if (!BASE64_SHA256.test(signature)) {
    const looksLike = /^[\da-f]{64}$/i.test(signature) ? "hex" : /^[\w-]{43}=?$/.test(signature) ? "Base64url" : "";
    fail("INVALID_SIGNATURE", `X-SIGNATURE must be Base64 (44 characters)${looksLike && `, not ${looksLike}`}`);
  }
  let text = body as string;
  if (typeof body !== "string") {
    // Invalid UTF-8 is an error rather than U+FFFD, which would change what is verified; ignoreBOM keeps
    // a leading BOM in the text, so it is verified (and rejected) instead of silently dropped.
    decoder ??= new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    try {
      text = decoder.decode(body);
    } catch {
      fail("MALFORMED_BODY", "the body is not valid UTF-8");
    }
  }
  // The texts the service may have signed: the body as received and, if a proxy re-serialized it, its canonical form.
  const forms = [text];
  if (!isCanonicalJson(text)) {
    try {
      const canonical = canonicalizeText(text);
      if (canonical !== text) forms.push(canonical);
    } catch {
      // not JSON: only the raw bytes can match, and the body is reported after the signature
    }
  }
  // Every candidate is computed and compared in constant time: timing does not tell which one matched.
  let matched = 0;
  for (const { apiKey, apiSecret } of credentials) {
    for (const canonicalBody of forms) {
      matched |= equalBit(await computeSignature({ apiKey, apiSecret, timestamp, canonicalBody }), signature);
    }
  }
  if (matched !== 1) {
    fail(
      "INVALID_SIGNATURE",
      "X-SIGNATURE does not match." +
        `${forms.length > 1 ? " The body was re-serialized (e.g. pretty-printed): pass the raw body." : ""} ` +
        `Check ${credentials.length > 1 ? `the ${credentials.length} credentials` : "apiKey and apiSecret"}: ` +
        "the service signs with yours, of this environment",
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    fail("MALFORMED_BODY", "the body is signed but not JSON");
  }
  return validate(json, { strict });
}
