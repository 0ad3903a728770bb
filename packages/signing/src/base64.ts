// btoa and atob exist on every supported runtime (Node >= 16, Deno, Bun,
// Workers, Edge). A digest is 32 bytes, so the binary strings stay tiny.

export function encodeBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

// The one canonical, padded encoding of 32 bytes: 43 characters, the last
// carrying 4 data bits and 2 zero bits, then one "=".
const SHA256_BASE64 = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

/** The 32 bytes of a Base64 HMAC-SHA256 signature, or undefined for anything else. */
export function decodeSignature(signature: unknown): Uint8Array<ArrayBuffer> | undefined {
  if (typeof signature !== "string" || !SHA256_BASE64.test(signature)) return undefined;
  return Uint8Array.from(atob(signature), (c) => c.charCodeAt(0));
}
