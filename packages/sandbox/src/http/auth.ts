// Request authentication as the document states it, and as the service checks it: the signature is verified
// over the canonical form of the body (keys sorted, no whitespace, non-ASCII escaped), and the canonical string
// that was signed must be the body sent. A body that is not canonical (e.g. Python's json.dumps with its
// default spaces), signed over its own bytes or over its canonical form, gets 401 with a message saying so.
// A request without a body signs `{}`.
import { createHmac, timingSafeEqual } from "node:crypto";
import { canonicalizeText } from "@exchange-kit/signing";
import { ApiError } from "./api-error.js";

export const TIMESTAMP_TOLERANCE_SECONDS = 300;

export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

const EMPTY_BODY = "{}";

function signatureOf(secret: string, apiKey: string, timestamp: string, body: string | Buffer): Buffer {
  return Buffer.from(createHmac("sha256", secret).update(`${apiKey}|${timestamp}|`).update(body).digest("base64"));
}

function sameSignature(given: Buffer, wanted: Buffer): boolean {
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** The canonical form of the text, or undefined when it is not JSON (the body parser then answers 400). */
function canonicalOf(text: string): string | undefined {
  try {
    return canonicalizeText(text);
  } catch {
    return undefined;
  }
}

function header(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text.trim() === "" ? undefined : text.trim();
}

/**
 * Returns the organization the request is signed for, or throws the 401 the document prescribes:
 * AUTH_MISSING_HEADERS, AUTH_UNAUTHORIZED (unknown key), AUTH_INVALID_SIGNATURE (bad signature or a timestamp
 * more than 300 s from the real clock; the sandbox clock, which tests may advance, is not used here).
 */
export function authenticate<O extends Credentials>(
  headers: Record<string, string | string[] | undefined>,
  body: { raw: Buffer; text: string } | undefined,
  organizationsByKey: ReadonlyMap<string, O>,
  nowSeconds = Math.floor(Date.now() / 1000),
): O {
  const apiKey = header(headers["x-api-key"]);
  const timestamp = header(headers["x-timestamp"]);
  const signature = header(headers["x-signature"]);
  if (!apiKey || !timestamp || !signature) {
    const missing: Record<string, string[]> = {};
    if (!apiKey) missing["X-API-KEY"] = ["This header is required."];
    if (!timestamp) missing["X-TIMESTAMP"] = ["This header is required."];
    if (!signature) missing["X-SIGNATURE"] = ["This header is required."];
    throw new ApiError(401, "AUTH_MISSING_HEADERS", "Authentication headers missing", missing);
  }
  const organization = organizationsByKey.get(apiKey);
  if (!organization) throw new ApiError(401, "AUTH_UNAUTHORIZED", "Unauthorized: unknown API key for this environment");
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS) {
    throw new ApiError(
      401,
      "AUTH_INVALID_SIGNATURE",
      "Invalid signature: X-TIMESTAMP is more than 300 seconds from server time",
      {
        "X-TIMESTAMP": ["Must be Unix seconds within 300 seconds of server time."],
      },
    );
  }
  const given = Buffer.from(signature);
  const sign = (text: string | Buffer) => signatureOf(organization.apiSecret, apiKey, timestamp, text);
  if (!body) {
    if (sameSignature(given, sign(EMPTY_BODY))) return organization;
    throw new ApiError(401, "AUTH_INVALID_SIGNATURE", "Invalid signature");
  }
  const canonical = canonicalOf(body.text);
  const overOwnBytes = sameSignature(given, sign(body.raw));
  // Canonical and signed as sent: the one accepted case. Not JSON but signed as sent: the body parser answers 400.
  if (overOwnBytes && (canonical === undefined || canonical === body.text)) return organization;
  if (canonical !== undefined && canonical !== body.text && (overOwnBytes || sameSignature(given, sign(canonical)))) {
    throw new ApiError(
      401,
      "AUTH_INVALID_SIGNATURE",
      "Invalid signature: the body must be sent exactly as the canonical string that was signed",
      {
        non_field_errors: [
          "The body sent is not its canonical form (keys sorted, no whitespace, non-ASCII as \\uXXXX). Sign the canonical string and send exactly that string.",
        ],
      },
    );
  }
  throw new ApiError(401, "AUTH_INVALID_SIGNATURE", "Invalid signature");
}
