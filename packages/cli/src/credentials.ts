import { createExchangeClient, type ExchangeClient } from "@exchange-kit/client";
import { UsageError } from "./output.js";

export interface CredentialFlags {
  "api-key"?: string | undefined;
  "api-secret"?: string | undefined;
}

export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

/** Flags win over EXCHANGE_API_KEY / EXCHANGE_API_SECRET; both or neither must be found. */
export function readCredentials(
  flags: CredentialFlags,
  env: Record<string, string | undefined>,
): Credentials | undefined {
  const apiKey = flags["api-key"] ?? env.EXCHANGE_API_KEY;
  const apiSecret = flags["api-secret"] ?? env.EXCHANGE_API_SECRET;
  if (apiKey === undefined && apiSecret === undefined) return undefined;
  if (!apiKey)
    throw new UsageError("an API secret was given without an API key: pass --api-key or set EXCHANGE_API_KEY");
  if (!apiSecret)
    throw new UsageError("an API key was given without its secret: pass --api-secret or set EXCHANGE_API_SECRET");
  return { apiKey, apiSecret };
}

export function requireCredentials(flags: CredentialFlags, env: Record<string, string | undefined>): Credentials {
  const found = readCredentials(flags, env);
  if (!found)
    throw new UsageError(
      "no credentials: pass --api-key and --api-secret, or set EXCHANGE_API_KEY and EXCHANGE_API_SECRET",
    );
  return found;
}

/** The sandbox (or service) base URL: --base-url, then EXCHANGE_BASE_URL, then the sandbox's default port. */
export function baseUrl(flag: string | undefined, env: Record<string, string | undefined>): string {
  return (flag ?? env.EXCHANGE_BASE_URL ?? "http://127.0.0.1:4020").replace(/\/+$/, "");
}

/** The typed client for the CLI's own calls: signed, with the client's errors; one quick retry at most. */
export function serviceClient(base: string, credentials: Credentials): ExchangeClient {
  return createExchangeClient({ baseUrl: base, ...credentials, maxRetries: 1, timeoutMs: 15_000 });
}
