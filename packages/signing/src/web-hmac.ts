import { encodeBase64 } from "./base64.js";
import type { Prepared } from "./request.js";

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
      '@exchange-kit/signing: Web Crypto (globalThis.crypto.subtle) is not available here; on Node.js import the package under the "node" condition or from "@exchange-kit/signing/node"',
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

/** The message's bytes: Web Crypto hashes one buffer, so a body given as bytes is appended to the prefix. */
function messageBytes({ message, bytes }: Prepared): Uint8Array<ArrayBuffer> {
  const prefix = utf8(message);
  if (bytes === undefined) return prefix;
  const all = new Uint8Array(prefix.length + bytes.length);
  all.set(prefix);
  all.set(bytes, prefix.length);
  return all;
}

export async function hmacBase64(prepared: Prepared): Promise<string> {
  const digest = await subtle().sign("HMAC", await hmacKey(prepared.secret), messageBytes(prepared));
  return encodeBase64(new Uint8Array(digest));
}

/** Constant-time check: subtle.verify compares the whole MAC. */
export async function hmacVerify(prepared: Prepared, signature: Uint8Array<ArrayBuffer>): Promise<boolean> {
  return subtle().verify("HMAC", await hmacKey(prepared.secret), signature, messageBytes(prepared));
}

/** For tests: how many keys are cached. */
export function cachedKeyCount(): number {
  return keys.size;
}
