/** One API key and its secret: deliveries are signed with your own credentials. */
export interface WebhookCredential {
  apiKey: string;
  apiSecret: string;
}

/**
 * Either one key and secret, or several during a key rotation: a delivery
 * signed with any of them is accepted.
 */
export type WebhookSecrets =
  | { apiKey: string; apiSecret: string; credentials?: undefined }
  | { credentials: readonly WebhookCredential[]; apiKey?: undefined; apiSecret?: undefined };

function checked(credential: WebhookCredential): WebhookCredential {
  for (const name of ["apiKey", "apiSecret"] as const) {
    if (typeof credential?.[name] !== "string" || credential[name] === "") {
      throw new TypeError(`${name} must be a non-empty string`);
    }
  }
  return credential;
}

/** The credentials to try, checked: a configuration mistake is a TypeError, never a rejected delivery. */
export function credentialList(secrets: WebhookSecrets): readonly WebhookCredential[] {
  const { credentials, apiKey, apiSecret } = secrets;
  if (credentials === undefined) return [checked(secrets as WebhookCredential)];
  if (!Array.isArray(credentials) || credentials.length === 0 || apiKey !== undefined || apiSecret !== undefined) {
    throw new TypeError("pass apiKey and apiSecret, or a non-empty credentials array, not both");
  }
  return credentials.map(checked);
}
