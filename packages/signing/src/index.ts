// The portable entry (the "default" export condition): Web Crypto, for
// Cloudflare Workers, Vercel Edge and any runtime with crypto.subtle that
// does not match "node". Node.js, Deno and Bun match "node" and get
// ./node.ts, which has the same functions plus synchronous ones.
import { prepareRequest, prepareSignature, prepareVerification, signedRequest } from "./request.js";
import type {
  ComputeSignatureOptions,
  SignedRequest,
  SignedRequestWithBody,
  SignedRequestWithoutBody,
  SignRequestOptions,
  VerifySignatureOptions,
} from "./types.js";
import { hmacBase64, hmacVerify } from "./web-hmac.js";

export { canonicalize } from "./canonicalize.js";
export { canonicalizeText } from "./canonicalize-text.js";
export { MAX_NESTING_DEPTH } from "./depth.js";
export { parseJson } from "./parse-json.js";
export type {
  ComputeSignatureOptions,
  Credentials,
  SignatureHeaders,
  SignedRequest,
  SignedRequestWithBody,
  SignedRequestWithoutBody,
  SignRequestOptions,
  VerifySignatureOptions,
} from "./types.js";

/**
 * Base64 HMAC-SHA256 of `apiKey|timestamp|canonicalBody`, keyed by the API secret.
 *
 * @example
 * const signature = await computeSignature({
 *   apiKey, apiSecret, timestamp: 1700000000, canonicalBody: canonicalize(body),
 * });
 */
export async function computeSignature(options: ComputeSignatureOptions): Promise<string> {
  return hmacBase64(prepareSignature(options));
}

/**
 * Canonicalizes the body, signs it and returns the body to send with the
 * four headers. Without a body (GET, DELETE) `{}` is signed, `body` is
 * undefined and there is no Content-Type.
 *
 * @example
 * const { body, headers } = await signRequest({ apiKey, apiSecret, body: { asset: "usdt" } });
 * await fetch(url, { method: "POST", headers, body });
 */
export function signRequest(options: SignRequestOptions & { body?: undefined }): Promise<SignedRequestWithoutBody>;
export function signRequest<B extends {} | null>(
  options: SignRequestOptions & { body: B },
): Promise<SignedRequestWithBody>;
export function signRequest(options: SignRequestOptions): Promise<SignedRequest>;
export async function signRequest(options: SignRequestOptions): Promise<SignedRequest> {
  const prepared = prepareRequest(options);
  return signedRequest(prepared, await hmacBase64(prepared));
}

/**
 * True when `signature` is the signature of this body and timestamp, and
 * the timestamp is within `toleranceSeconds` (default 300) of now, either
 * way. A malformed timestamp or signature gives false, never an exception.
 * The comparison is constant-time.
 *
 * @example
 * const ok = await verifySignature({
 *   apiKey, apiSecret, timestamp: headers["x-timestamp"], signature: headers["x-signature"],
 *   canonicalBody: canonicalizeText(rawBody),
 * });
 */
export async function verifySignature(options: VerifySignatureOptions): Promise<boolean> {
  const prepared = prepareVerification(options);
  if (prepared === undefined) return false;
  return hmacVerify(prepared, prepared.signature);
}
