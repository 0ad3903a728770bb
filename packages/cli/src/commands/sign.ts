// exchange-kit sign: the headers (and the exact body) for one request, for curl users.
import { canonicalizeText, computeSignature, signRequest } from "@exchange-kit/signing";
import { type Credentials, requireCredentials } from "../credentials.js";
import { readUsageFile, UsageError } from "../output.js";
import type { Command } from "./command.js";

/**
 * Signs JSON text over its lossless canonical form (canonicalizeText): big integers and decimals such as 1.10
 * keep their digits, which a JSON.parse round trip would change, so the bytes signed are the text's own.
 */
async function signText(text: string, credentials: Credentials, timestamp: string) {
  let canonicalBody: string;
  try {
    canonicalBody = canonicalizeText(text);
  } catch (error) {
    throw new UsageError(`the body is not JSON: ${(error as Error).message}`);
  }
  if (!canonicalBody.startsWith("{") && !canonicalBody.startsWith("["))
    throw new UsageError("the body must be a JSON object or array");
  const signature = await computeSignature({ ...credentials, timestamp, canonicalBody });
  const headers = {
    "X-API-KEY": credentials.apiKey,
    "X-TIMESTAMP": timestamp,
    "X-SIGNATURE": signature,
    "Content-Type": "application/json",
  };
  return { body: canonicalBody, headers };
}

export const sign: Command = {
  usage: `exchange-kit sign [--body JSON | --body-file FILE] [--timestamp SECONDS] [--url URL --method POST]
  --api-key K --api-secret S   credentials (default: EXCHANGE_API_KEY, EXCHANGE_API_SECRET)
  no body: a GET/DELETE signature over "{}"; --url prints a ready curl command`,
  options: {
    body: { type: "string" },
    "body-file": { type: "string" },
    timestamp: { type: "string" },
    url: { type: "string" },
    method: { type: "string" },
    "api-key": { type: "string" },
    "api-secret": { type: "string" },
  },
  async run({ values, out, env }) {
    const credentials = requireCredentials(values, env);
    if (values.body !== undefined && values["body-file"] !== undefined)
      throw new UsageError("pass --body or --body-file, not both");
    const text =
      values["body-file"] !== undefined
        ? await readUsageFile(String(values["body-file"]), "--body-file")
        : (values.body as string | undefined);
    const timestamp = values.timestamp === undefined ? String(Math.floor(Date.now() / 1000)) : String(values.timestamp);
    if (!/^\d{1,11}$/.test(timestamp))
      throw new UsageError(`--timestamp must be Unix time in whole seconds, got "${timestamp}"`);
    const signed =
      text === undefined
        ? await signRequest({ ...credentials, timestamp })
        : await signText(text, credentials, timestamp);
    const body = signed.body;
    const method = String(values.method ?? (body === undefined ? "GET" : "POST")).toUpperCase();
    const headers = signed.headers as Record<string, string>;
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
    if (body !== undefined) lines.push("", body);
    if (values.url !== undefined) {
      const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
      const parts = [
        `curl -X ${method} ${quote(String(values.url))}`,
        ...Object.entries(headers).map(([n, v]) => `-H ${quote(`${n}: ${v}`)}`),
      ];
      if (body !== undefined) parts.push(`--data-raw ${quote(body)}`);
      lines.push("", parts.join(" \\\n  "));
    }
    out.result({ method, headers, body: body ?? null }, lines.join("\n"));
    return 0;
  },
};
