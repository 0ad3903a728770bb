import { decodeSignature } from "./base64.js";
import { canonicalize } from "./canonicalize.js";
import { assertNotBrowser } from "./browser-guard.js";
import type {
  ComputeSignatureOptions,
  Credentials,
  SignedRequest,
  SignRequestOptions,
  VerifySignatureOptions,
} from "./types.js";

// Shared by the Node and Web Crypto entries, which differ only in how they
// run HMAC. Objects are built as literals, not spread: spreading showed up
// in profiles of signRequest.

/**
 * The HMAC key and the message: apiKey|timestamp|canonicalBody, or, for a
 * body given as bytes, apiKey|timestamp| in `message` followed by `bytes`
 * (hashed in two updates: the body is never joined into a string or copied).
 */
export interface Prepared {
  readonly secret: string;
  readonly message: string;
  readonly bytes?: Uint8Array;
}

export interface PreparedRequest extends Prepared {
  readonly apiKey: string;
  readonly timestamp: string;
  readonly body: string | undefined;
}

export interface PreparedVerification extends Prepared {
  readonly signature: Uint8Array<ArrayBuffer>;
}

function fail(message: string): never {
  throw new TypeError(message);
}

function check(options: Credentials): void {
  if (typeof options !== "object" || options === null) fail("expected an options object");
  assertNotBrowser(options.dangerouslyAllowBrowser);
  if (typeof options.apiKey !== "string" || !options.apiKey) fail("apiKey must be a non-empty string");
  if (typeof options.apiSecret !== "string" || !options.apiSecret) fail("apiSecret must be a non-empty string");
}

function checkBody(body: unknown): string | Uint8Array {
  return typeof body === "string" || body instanceof Uint8Array
    ? body
    : fail("canonicalBody must be a string (canonicalize(value) or canonicalizeText(text)) or the body's bytes");
}

/** The message of `apiKey|timestamp|body`: whole for text, the prefix plus the bytes for bytes. */
function message(secret: string, prefix: string, body: string | Uint8Array): Prepared {
  return typeof body === "string" ? { secret, message: prefix + body } : { secret, message: prefix, bytes: body };
}

/** The X-TIMESTAMP text, or undefined unless it is whole Unix seconds of at most `digits` digits. */
function seconds(timestamp: unknown, digits: number): string | undefined {
  const text = Number.isSafeInteger(timestamp) ? String(timestamp) : timestamp;
  return typeof text === "string" && text.length <= digits && /^\d+$/.test(text) ? text : undefined;
}

function signingTimestamp(timestamp: number | string | undefined): string {
  if (timestamp === undefined) return String(Math.floor(Date.now() / 1000));
  // 11 digits reach the year 5138; a 13-digit value is Date.now() milliseconds.
  return (
    seconds(timestamp, 11) ??
    fail(`timestamp must be Unix time in whole seconds (not milliseconds), got ${String(timestamp)}`)
  );
}

export function prepareSignature(options: ComputeSignatureOptions): Prepared {
  check(options);
  const timestamp = signingTimestamp(options.timestamp);
  return message(options.apiSecret, `${options.apiKey}|${timestamp}|`, checkBody(options.canonicalBody));
}

export function prepareRequest(options: SignRequestOptions): PreparedRequest {
  check(options);
  const { apiKey, body } = options;
  // A string would be signed as a JSON string literal: almost surely JSON text passed by mistake.
  if (typeof body === "string")
    fail("body must be a value, not JSON text; for text use canonicalizeText with computeSignature");
  const sent = body === undefined ? undefined : canonicalize(body);
  const timestamp = signingTimestamp(options.timestamp);
  return {
    secret: options.apiSecret,
    message: `${apiKey}|${timestamp}|${sent ?? "{}"}`,
    apiKey,
    timestamp,
    body: sent,
  };
}

export function signedRequest(p: PreparedRequest, signature: string): SignedRequest {
  return p.body === undefined
    ? { body: undefined, headers: { "X-API-KEY": p.apiKey, "X-TIMESTAMP": p.timestamp, "X-SIGNATURE": signature } }
    : {
        body: p.body,
        headers: {
          "X-API-KEY": p.apiKey,
          "X-TIMESTAMP": p.timestamp,
          "X-SIGNATURE": signature,
          "Content-Type": "application/json",
        },
      };
}

/**
 * The message and the received signature's bytes, or undefined when the
 * request fails before any HMAC: a malformed or stale timestamp, a malformed
 * signature. Configuration errors throw.
 */
export function prepareVerification(options: VerifySignatureOptions): PreparedVerification | undefined {
  check(options);
  const body = checkBody(options.canonicalBody);
  const { toleranceSeconds = 300, now = Date.now() / 1000 } = options;
  if (!(toleranceSeconds >= 0)) fail("toleranceSeconds must be a number >= 0");
  if (!(now >= 0 && now < 1e11)) fail("now must be Unix time in seconds");
  const timestamp = seconds(options.timestamp, 15);
  const signature = decodeSignature(options.signature);
  if (timestamp === undefined || signature === undefined) return undefined;
  if (Math.abs(Math.floor(now) - Number(timestamp)) > toleranceSeconds) return undefined;
  return { ...message(options.apiSecret, `${options.apiKey}|${timestamp}|`, body), signature };
}
