import { decodeSignature } from "./base64.js";
import { canonicalize } from "./canonicalize.js";
import { assertNotBrowser } from "./guard.js";
import type {
  ComputeSignatureOptions,
  Credentials,
  SignedRequest,
  SignRequestOptions,
  VerifySignatureOptions,
} from "./types.js";

// Shared by the Node and Web Crypto entries, which differ only in how they run HMAC.

/** What gets signed, as one string: apiKey|timestamp|canonicalBody. */
export interface Prepared {
  readonly secret: string;
  readonly message: string;
}

const SECONDS = /^\d{1,11}$/;

function checkCredentials(options: Credentials): void {
  if (options === null || typeof options !== "object") throw new TypeError("expected an options object");
  assertNotBrowser(options.dangerouslyAllowBrowser);
  if (typeof options.apiKey !== "string" || options.apiKey === "") {
    throw new TypeError("apiKey must be a non-empty string");
  }
  if (typeof options.apiSecret !== "string" || options.apiSecret === "") {
    throw new TypeError("apiSecret must be a non-empty string");
  }
}

function timestampHeader(timestamp: number | string | undefined): string {
  if (timestamp === undefined) return String(Math.floor(Date.now() / 1000));
  const text = typeof timestamp === "number" && Number.isSafeInteger(timestamp) ? String(timestamp) : timestamp;
  if (typeof text !== "string" || !SECONDS.test(text)) {
    const hint =
      typeof timestamp === "number" && timestamp > 1e11 ? " (this looks like milliseconds; divide by 1000)" : "";
    throw new TypeError(`timestamp must be Unix time in whole seconds, got ${String(timestamp)}${hint}`);
  }
  return text;
}

export function prepareSignature(options: ComputeSignatureOptions): Prepared {
  checkCredentials(options);
  if (typeof options.canonicalBody !== "string") {
    throw new TypeError("canonicalBody must be a string; use canonicalize(value) to make one");
  }
  const timestamp = timestampHeader(options.timestamp);
  return { secret: options.apiSecret, message: `${options.apiKey}|${timestamp}|${options.canonicalBody}` };
}

export interface PreparedRequest extends Prepared {
  readonly apiKey: string;
  readonly timestamp: string;
  readonly body: string | undefined;
}

export function prepareRequest(options: SignRequestOptions): PreparedRequest {
  checkCredentials(options);
  const { apiKey, body } = options;
  if (typeof body === "string") {
    // A string body would be signed as a JSON string literal: almost surely JSON text passed by mistake.
    throw new TypeError(
      "body is a string; pass the body as a value (an object), or sign JSON text with canonicalizeText and computeSignature",
    );
  }
  const sent = body === undefined ? undefined : canonicalize(body);
  const timestamp = timestampHeader(options.timestamp);
  return {
    apiKey,
    timestamp,
    body: sent,
    secret: options.apiSecret,
    message: `${apiKey}|${timestamp}|${sent ?? "{}"}`,
  };
}

export function signedRequest(prepared: PreparedRequest, signature: string): SignedRequest {
  const headers = { "X-API-KEY": prepared.apiKey, "X-TIMESTAMP": prepared.timestamp, "X-SIGNATURE": signature };
  return prepared.body === undefined
    ? { body: undefined, headers }
    : { body: prepared.body, headers: { ...headers, "Content-Type": "application/json" } };
}

export interface PreparedVerification extends Prepared {
  readonly expected: Uint8Array<ArrayBuffer>;
}

/**
 * The message to check and the decoded signature, or undefined when the
 * request is already known to fail (malformed or stale timestamp,
 * malformed signature). Bad configuration throws instead.
 */
export function prepareVerification(options: VerifySignatureOptions): PreparedVerification | undefined {
  checkCredentials(options);
  const { timestamp, canonicalBody, toleranceSeconds = 300 } = options;
  if (typeof canonicalBody !== "string") {
    throw new TypeError("canonicalBody must be the body text; use canonicalizeText(raw) for JSON text");
  }
  if (!(toleranceSeconds >= 0)) throw new TypeError("toleranceSeconds must be a number >= 0");
  const now = options.now ?? Date.now() / 1000;
  if (!Number.isFinite(now) || now > 1e11) throw new TypeError("now must be Unix time in seconds");

  const text = typeof timestamp === "number" && Number.isSafeInteger(timestamp) ? String(timestamp) : timestamp;
  if (typeof text !== "string" || !/^\d{1,15}$/.test(text)) return undefined;
  if (Math.abs(Math.floor(now) - Number(text)) > toleranceSeconds) return undefined;
  const expected = decodeSignature(options.signature);
  if (expected === undefined) return undefined;
  return { secret: options.apiSecret, message: `${options.apiKey}|${text}|${canonicalBody}`, expected };
}
