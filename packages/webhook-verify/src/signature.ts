import { fail } from "./errors.js";

const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;

/** Rejects an X-SIGNATURE that cannot be a Base64 HMAC-SHA256 digest, naming the usual mistakes. */
export function checkSignatureFormat(signature: string): void {
  if (BASE64_SHA256.test(signature)) return;
  const looksLike = /^[\da-f]{64}$/i.test(signature) ? "hex" : /^[\w-]{43}=?$/.test(signature) ? "Base64url" : "";
  fail("INVALID_SIGNATURE", `X-SIGNATURE must be Base64 (44 characters)${looksLike && `, not ${looksLike}`}`);
}

/**
 * 1 when the two strings are equal, else 0, in time that depends only on
 * the length (public here: both are 44-character digests). No early exit,
 * and the result is computed without a branch on the data.
 */
export function equalBit(a: string, b: string): number {
  if (a.length !== b.length) return 0;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return (diff - 1) >>> 31;
}
