import { signRequest } from "@exchange-kit/signing";
import type { Credentials } from "./credentials.js";

export interface EnvelopeAnswer {
  status: number;
  body: { status?: boolean; message?: string; data?: unknown; err_code?: string; errors?: unknown } | undefined;
  text: string;
}

/** One signed request to the service or the sandbox, answered as the envelope (or the raw text if it is not JSON). */
export async function signedFetch(
  base: string,
  credentials: Credentials,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  path: string,
  body?: object,
): Promise<EnvelopeAnswer> {
  const signed = await signRequest({ ...credentials, body });
  const response = await fetch(`${base}${path}`, {
    method,
    headers: signed.headers,
    body: signed.body,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  let parsed: EnvelopeAnswer["body"];
  try {
    parsed = JSON.parse(text) as EnvelopeAnswer["body"];
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text };
}

/** A one-line account of a failed answer: the err_code and message, or the status and the start of the text. */
export function describeFailure(answer: EnvelopeAnswer): string {
  if (answer.body?.err_code) return `${answer.status} ${answer.body.err_code}: ${answer.body.message ?? ""}`.trim();
  return `HTTP ${answer.status}: ${answer.text.slice(0, 200)}`;
}
