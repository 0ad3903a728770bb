// The Node.js entry (the "node" export condition): node:crypto, which is
// synchronous underneath, so synchronous variants are offered here too.
// Deno and Bun also resolve "node" and provide node:crypto.
import { type Prepared, prepareRequest, prepareSignature, prepareVerification, signedRequest } from "./request.js";
import type {
  ComputeSignatureOptions,
  SignedRequest,
  SignedRequestWithBody,
  SignedRequestWithoutBody,
  SignRequestOptions,
  VerifySignatureOptions,
} from "./types.js";

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

type NodeCrypto = typeof import("node:crypto");
let loadedCrypto: NodeCrypto | undefined;

/**
 * node:crypto, loaded on the first signature rather than at import: loading it is most of a cold import of this
 * entry (~10 ms of ~13), which a process that only canonicalizes or parses, or signs later, need not pay up front.
 * `process.getBuiltinModule` is synchronous (Node >= 20.16, Deno 2, Bun 1.1), so the sync API stays sync.
 */
function nodeCrypto(): NodeCrypto {
  loadedCrypto ??= process.getBuiltinModule("node:crypto");
  return loadedCrypto;
}

function hmac(p: Prepared): Buffer;
function hmac(p: Prepared, encoding: "base64"): string;
function hmac({ secret, message, bytes }: Prepared, encoding?: "base64"): Buffer | string {
  // digest("base64") encodes natively; digest().toString("base64") costs a second pass.
  const h = nodeCrypto().createHmac("sha256", secret).update(message);
  if (bytes !== undefined) h.update(bytes);
  return encoding === undefined ? h.digest() : h.digest(encoding);
}

/**
 * Synchronous computeSignature, Node.js only.
 *
 * @example
 * const signature = computeSignatureSync({ apiKey, apiSecret, timestamp, canonicalBody: "{}" });
 */
export function computeSignatureSync(options: ComputeSignatureOptions): string {
  return hmac(prepareSignature(options), "base64");
}

/**
 * Base64 HMAC-SHA256 of `apiKey|timestamp|canonicalBody`, keyed by the API secret.
 *
 * @example
 * const signature = await computeSignature({
 *   apiKey, apiSecret, timestamp: 1700000000, canonicalBody: canonicalize(body),
 * });
 */
export async function computeSignature(options: ComputeSignatureOptions): Promise<string> {
  return computeSignatureSync(options);
}

/**
 * Synchronous signRequest, Node.js only.
 *
 * @example
 * const { body, headers } = signRequestSync({ apiKey, apiSecret, body: order });
 */
export function signRequestSync(options: SignRequestOptions & { body?: undefined }): SignedRequestWithoutBody;
export function signRequestSync<B extends {} | null>(options: SignRequestOptions & { body: B }): SignedRequestWithBody;
export function signRequestSync(options: SignRequestOptions): SignedRequest;
export function signRequestSync(options: SignRequestOptions): SignedRequest {
  const prepared = prepareRequest(options);
  return signedRequest(prepared, hmac(prepared, "base64"));
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
  return signRequestSync(options);
}

/**
 * Synchronous verifySignature, Node.js only.
 *
 * @example
 * if (!verifySignatureSync({ apiKey, apiSecret, timestamp, signature, canonicalBody })) res.status(401);
 */
export function verifySignatureSync(options: VerifySignatureOptions): boolean {
  const prepared = prepareVerification(options);
  if (prepared === undefined) return false;
  return nodeCrypto().timingSafeEqual(hmac(prepared), prepared.signature);
}

/**
 * True when `signature` is the signature of this body and timestamp, and
 * the timestamp is within `toleranceSeconds` (default 300) of now, either
 * way. A malformed timestamp or signature gives false, never an exception.
 * The comparison is constant-time.
 *
 * @example
 * const ok = await verifySignature({
 *   apiKey, apiSecret, timestamp: req.headers["x-timestamp"], signature: req.headers["x-signature"],
 *   canonicalBody: canonicalizeText(rawBody),
 * });
 */
export async function verifySignature(options: VerifySignatureOptions): Promise<boolean> {
  return verifySignatureSync(options);
}
