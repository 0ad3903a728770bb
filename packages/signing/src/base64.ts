const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Standard, padded Base64. Written out because not every runtime has Buffer, and btoa wants a binary string. */
export function encodeBase64(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest > 0) {
    const n = (bytes[i]! << 16) | (rest === 2 ? bytes[i + 1]! << 8 : 0);
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + (rest === 2 ? ALPHABET[(n >> 6) & 63]! : "=") + "=";
  }
  return out;
}

const SHA256_BASE64 = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

/**
 * The 32 bytes of a Base64 HMAC-SHA256 signature, or undefined unless the
 * text is exactly the one canonical padded encoding of 32 bytes. Rejecting
 * lookalikes keeps "the signature" a single string, as the server sees it.
 */
export function decodeSignature(signature: string): Uint8Array<ArrayBuffer> | undefined {
  if (typeof signature !== "string" || !SHA256_BASE64.test(signature)) return undefined;
  const bytes = new Uint8Array(32);
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (let i = 0; i < 43; i++) {
    acc = (acc << 6) | ALPHABET.indexOf(signature[i]!);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[o++] = (acc >> bits) & 0xff;
    }
  }
  return bytes;
}
