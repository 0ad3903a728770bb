// Request authentication as the document states it, and as the service checks it: the signature is verified
// over the canonical form of the body (keys sorted, no whitespace, non-ASCII escaped), and the canonical string
// that was signed must be the body sent. A body that is not canonical (e.g. Python's json.dumps with its
// default spaces), signed over its own bytes or over its canonical form, gets 401 with a message saying so.
// A request without a body signs `{}`.
import { createHmac, timingSafeEqual } from "node:crypto";
import { canonicalizeText } from "@exchange-kit/signing";
import { ApiError } from "../domain/api-error.js";

export const TIMESTAMP_TOLERANCE_SECONDS = 300;

export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

/**
 * Where the organization of an API key is found: a Map in tests, the organizations table (organizations/directory.ts)
 * in a sandbox, read on each request so a key added on another replica is known at once.
 */
export interface OrganizationsByKey<O> {
  get(apiKey: string): Promise<O | undefined>;
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

/** The three signing headers, trimmed; AUTH_MISSING_HEADERS naming each one absent or blank. */
function signingHeaders(headers: Record<string, string | string[] | undefined>): {
  apiKey: string;
  timestamp: string;
  signature: string;
} {
  const apiKey = header(headers["x-api-key"]);
  const timestamp = header(headers["x-timestamp"]);
  const signature = header(headers["x-signature"]);
  if (apiKey && timestamp && signature) return { apiKey, timestamp, signature };
  const missing: Record<string, string[]> = {};
  if (!apiKey) missing["X-API-KEY"] = ["This header is required."];
  if (!timestamp) missing["X-TIMESTAMP"] = ["This header is required."];
  if (!signature) missing["X-SIGNATURE"] = ["This header is required."];
  throw new ApiError(401, "AUTH_MISSING_HEADERS", "Authentication headers missing", missing);
}

/** X-TIMESTAMP is Unix seconds (digits only) within TIMESTAMP_TOLERANCE_SECONDS of `nowSeconds`, either way. */
export function isFreshTimestamp(timestamp: string, nowSeconds: number): boolean {
  return /^\d{1,12}$/.test(timestamp) && Math.abs(nowSeconds - Number(timestamp)) <= TIMESTAMP_TOLERANCE_SECONDS;
}

/** What a body's signature shows: accepted, signed correctly but not sent as its canonical form, or wrong. */
export type BodySignature = "valid" | "not-canonical" | "invalid";

/**
 * The verdict on a signed body. `form`: whether the text is its own canonical form ("not-json" when it has none:
 * the body parser answers 400 for it); `signedAsSent`: the signature is over the bytes received; `signedCanonical`:
 * over the canonical form. Only a canonical body signed as sent is accepted, as the service does.
 */
export function bodySignature(
  form: "canonical" | "not-canonical" | "not-json",
  signedAsSent: boolean,
  signedCanonical: boolean,
): BodySignature {
  if (signedAsSent && form !== "not-canonical") return "valid";
  if (form === "not-canonical" && (signedAsSent || signedCanonical)) return "not-canonical";
  return "invalid";
}

/** The body's verdict; the canonical form is signed only when the body is not already in it. */
function verdictOn(body: { raw: Buffer; text: string }, given: Buffer, sign: (text: string | Buffer) => Buffer) {
  const canonical = canonicalOf(body.text);
  const form = canonical === undefined ? "not-json" : canonical === body.text ? "canonical" : "not-canonical";
  const signedAsSent = sameSignature(given, sign(body.raw));
  const signedCanonical = form === "not-canonical" && !signedAsSent && sameSignature(given, sign(canonical!));
  return bodySignature(form, signedAsSent, signedCanonical);
}

const NOT_CANONICAL = {
  message: "Invalid signature: the body must be sent exactly as the canonical string that was signed",
  errors: {
    non_field_errors: [
      "The body sent is not its canonical form (keys sorted, no whitespace, non-ASCII as \\uXXXX). Sign the canonical string and send exactly that string.",
    ],
  },
};

/**
 * Returns the organization the request is signed for, or throws the 401 the document prescribes:
 * AUTH_MISSING_HEADERS, AUTH_UNAUTHORIZED (unknown key), AUTH_INVALID_SIGNATURE (bad signature or a timestamp
 * more than 300 s from the real clock; the sandbox clock, which tests may advance, is not used here).
 */
export async function authenticate<O extends Credentials>(
  headers: Record<string, string | string[] | undefined>,
  body: { raw: Buffer; text: string } | undefined,
  organizationsByKey: OrganizationsByKey<O>,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<O> {
  const { apiKey, timestamp, signature } = signingHeaders(headers);
  const organization = await organizationsByKey.get(apiKey);
  if (!organization) throw new ApiError(401, "AUTH_UNAUTHORIZED", "Unauthorized: unknown API key for this environment");
  if (!isFreshTimestamp(timestamp, nowSeconds)) {
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
  const verdict = body ? verdictOn(body, given, sign) : sameSignature(given, sign(EMPTY_BODY)) ? "valid" : "invalid";
  if (verdict === "valid") return organization;
  if (verdict === "not-canonical")
    throw new ApiError(401, "AUTH_INVALID_SIGNATURE", NOT_CANONICAL.message, NOT_CANONICAL.errors);
  throw new ApiError(401, "AUTH_INVALID_SIGNATURE", "Invalid signature");
}
