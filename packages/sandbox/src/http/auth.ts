// Request authentication as the document states it. The signature is checked over the body bytes exactly as
// received (the signed canonical string must be the body sent); a request without a body signs `{}`.
import { createHmac, timingSafeEqual } from "node:crypto";
import { ApiError } from "./api-error.js";

export const TIMESTAMP_TOLERANCE_SECONDS = 300;

export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

const EMPTY_BODY = Buffer.from("{}");

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
  body: Buffer,
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
    throw new ApiError(401, "AUTH_INVALID_SIGNATURE", "Invalid signature: X-TIMESTAMP is more than 300 seconds from server time", {
      "X-TIMESTAMP": ["Must be Unix seconds within 300 seconds of server time."],
    });
  }
  const expected = createHmac("sha256", organization.apiSecret)
    .update(`${apiKey}|${timestamp}|`)
    .update(body.length > 0 ? body : EMPTY_BODY)
    .digest("base64");
  const given = Buffer.from(signature);
  const wanted = Buffer.from(expected);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
    throw new ApiError(401, "AUTH_INVALID_SIGNATURE", "Invalid signature");
  }
  return organization;
}
