import { isCanonicalJson } from "./canonical-check.js";
import { credentialList, type WebhookCredential, type WebhookSecrets } from "./credentials.js";
import { fail } from "./errors.js";
import type { ReceivedWebhookEvent, WebhookEvent } from "./events.js";
import { requireHeader, type WebhookHeaders } from "./headers.js";
import { equalBit } from "./constant-time.js";
import { canonicalizeText, computeSignature, parseJson } from "./signing.js";
import { checkTimestamp } from "./timestamp.js";
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

/** Largest body whose canonical form is tried when its bytes do not match: events are under 1 KB. */
const CANONICAL_FALLBACK_BYTES = 64 * 1024;
const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;
let decoder: TextDecoder | undefined;

/** The body as text. Invalid UTF-8 is an error rather than U+FFFD, which would change what is read. */
function decoded(raw: string | Uint8Array): string {
  if (typeof raw === "string") return raw;
  // ignoreBOM keeps a leading BOM in the text, so it is rejected as JSON instead of silently dropped.
  decoder ??= new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  try {
    return decoder.decode(raw);
  } catch {
    return fail("MALFORMED_BODY", "the body is not valid UTF-8");
  }
}

/**
 * 1 when `signature` signs `body` under any of the credentials, else 0.
 * Every credential is computed and compared in constant time: timing does
 * not tell which one matched.
 */
async function matches(
  credentials: readonly WebhookCredential[],
  timestamp: string,
  body: string | Uint8Array,
  signature: string,
): Promise<number> {
  let matched = 0;
  for (const { apiKey, apiSecret } of credentials) {
    matched |= equalBit(await computeSignature({ apiKey, apiSecret, timestamp, canonicalBody: body }), signature);
  }
  return matched;
}

/**
 * Verifies a webhook delivery and returns its event. In order: the
 * X-TIMESTAMP and X-SIGNATURE headers are present, the timestamp is within
 * the tolerance, the signature matches (constant-time, over the raw bytes
 * and, only if they fail and the body is at most 64 KB, over its canonical
 * form, in case a proxy re-serialized it), then the body is
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
  const raw = rawBody(body);
  const timestamp = requireHeader(options.headers, "x-timestamp");
  const signature = requireHeader(options.headers, "x-signature");
  checkTimestamp(timestamp, now, toleranceSeconds);
  checkSignatureFormat(signature);
  // The bytes as received are checked first: the service signs the body it sends, so a genuine delivery
  // matches here, with one HMAC per credential over the bytes and no decode.
  if ((await matches(credentials, timestamp, raw, signature)) === 1) {
    return validate(parseSigned(decoded(raw)), { strict });
  }
  const fallback = await matchCanonicalForm(credentials, timestamp, raw, signature);
  if (!fallback.matched) fail("INVALID_SIGNATURE", mismatch(fallback.reserialized, fallback.small, credentials.length));
  return validate(parseSigned(fallback.text), { strict });
}

/**
 * The signature check's second chance, only for a body small enough to be cheap: its canonical form, in case a
 * proxy re-serialized the body (pretty-printed it, reordered keys). Canonicalizing unauthenticated input costs
 * CPU, so a large unsigned body is rejected after one HMAC per credential.
 */
async function matchCanonicalForm(
  credentials: readonly WebhookCredential[],
  timestamp: string,
  raw: string | Uint8Array,
  signature: string,
): Promise<{ matched: boolean; reserialized: boolean; small: boolean; text: string }> {
  const small = (typeof raw === "string" ? raw.length : raw.byteLength) <= CANONICAL_FALLBACK_BYTES;
  if (!small) return { matched: false, reserialized: false, small, text: "" };
  const text = decoded(raw);
  const canonical = isCanonicalJson(text) ? undefined : canonicalOrNothing(text);
  if (canonical === undefined || canonical === text) return { matched: false, reserialized: false, small, text };
  const matched = (await matches(credentials, timestamp, canonical, signature)) === 1;
  return { matched, reserialized: true, small, text };
}

/** The canonical form of a JSON text, or undefined when it is not JSON (then only its raw bytes could match). */
function canonicalOrNothing(text: string): string | undefined {
  try {
    return canonicalizeText(text);
  } catch {
    return undefined;
  }
}

/** A Base64 HMAC-SHA256 digest, or INVALID_SIGNATURE naming the usual mistakes. */
function checkSignatureFormat(signature: string): void {
  if (BASE64_SHA256.test(signature)) return;
  const looksLike = /^[\da-f]{64}$/i.test(signature) ? "hex" : /^[\w-]{43}=?$/.test(signature) ? "Base64url" : "";
  fail("INVALID_SIGNATURE", `X-SIGNATURE must be Base64 (44 characters)${looksLike && `, not ${looksLike}`}`);
}

/** Why a signature may not match, for the developer. */
function mismatch(reserialized: boolean, small: boolean, credentials: number): string {
  return (
    "X-SIGNATURE does not match." +
    `${reserialized ? " The body was re-serialized (e.g. pretty-printed): pass the raw body." : ""}` +
    `${small ? "" : ` The body is over ${CANONICAL_FALLBACK_BYTES / 1024} KB, so only its bytes as received were checked.`} ` +
    `Check ${credentials > 1 ? `the ${credentials} credentials` : "apiKey and apiSecret"}: ` +
    "the service signs with yours, of this environment"
  );
}

/** The raw bytes, not a parsed object or nothing at all: the signature covers the exact bytes. */
function rawBody(body: unknown): string | Uint8Array {
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return fail(
    "MALFORMED_BODY",
    `${body == null ? "no body" : "the body was parsed before verification"}: pass the raw body ` +
      "(string, Uint8Array or Buffer); in Express, mount the handler before express.json()",
  );
}

/** The signed body's JSON; MALFORMED_BODY when it is not JSON. */
function parseSigned(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return fail("MALFORMED_BODY", "the body is signed but not JSON");
  }
}
