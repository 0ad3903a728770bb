// An organization's ID and a new organization's credentials. The ID is a digest of the API key, so the same
// key names the same organization on every replica and across restarts, and looking a key up is a lookup by ID.
import { createHash, randomBytes } from "node:crypto";

/**
 * The organization ID of an API key: a UUID-shaped SHA-256 digest.
 *
 * @example
 * organizationId("key_acme"); // the same UUID-shaped ID every time, on every replica
 */
export function organizationId(apiKey: string): string {
  const hex = createHash("sha256").update(`exchange-kit-sandbox|${apiKey}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A new random key pair: 96 bits of key after the `sbx_` prefix, a 256-bit secret.
 *
 * @example
 * const { apiKey, apiSecret } = generatedCredentials(); // "sbx_3f9c…", "Jk2…"
 */
export function generatedCredentials(): { apiKey: string; apiSecret: string } {
  return { apiKey: `sbx_${randomBytes(12).toString("hex")}`, apiSecret: randomBytes(32).toString("base64url") };
}
