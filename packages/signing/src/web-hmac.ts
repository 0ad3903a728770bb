import { encodeBase64 } from "./base64.js";

// importKey is the slow part of a Web Crypto HMAC, and a service signs with
// one or a few secrets, so keys are kept. Bounded so that a process handed
// many secrets (multi-tenant) does not grow without limit; least recently
// used goes first.
const MAX_KEYS = 32;
const keys = new Map<string, Promise<CryptoKey>>();
let encoder: TextEncoder | undefined;

function utf8(text: string): Uint8Array<ArrayBuffer> {
  return (encoder ??= new TextEncoder()).encode(text);
}

function subtle(): SubtleCrypto {
  const s = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (s === undefined) {
    throw new Error(
      "@exchange-kit/signing: Web Crypto (globalThis.crypto.subtle) is not available here; on Node.js import the package under the \"node\" condition or from \"@exchange-kit/signing/node\"",
    );
  }
  return s;
}

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (key !== undefined) {
    keys.delete(secret);
  } else {
    key = subtle().importKey("raw", utf8(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    const pending = key;
    pending.catch(() => {
      if (keys.get(secret) === pending) keys.delete(secret);
    });
  }
  keys.set(secret, key);
  if (keys.size > MAX_KEYS) keys.delete(keys.keys().next().value!);
  return key;
}

export async function hmacBase64(secret: string, message: string): Promise<string> {
  const digest = await subtle().sign("HMAC", await hmacKey(secret), utf8(message));
  return encodeBase64(new Uint8Array(digest));
}

/** Constant-time check: subtle.verify compares the whole MAC. */
export async function hmacVerify(secret: string, message: string, signature: Uint8Array<ArrayBuffer>): Promise<boolean> {
  return subtle().verify("HMAC", await hmacKey(secret), signature, utf8(message));
}

/** For tests: how many keys are cached. */
export function cachedKeyCount(): number {
  return keys.size;
}
