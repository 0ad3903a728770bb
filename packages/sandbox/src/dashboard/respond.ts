// How the dashboard answers: every answer with a strict Content-Security-Policy (scripts, styles and calls from
// the sandbox itself only; no framing), no caching, no referrer (a URL carrying a token must not travel on).
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseJson } from "@exchange-kit/signing";
import { ApiError } from "../domain/api-error.js";
import type { JsonObject } from "../api/route.js";

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
};

export function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  headers: Record<string, string | string[]> = {},
): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    "Content-Type": type,
    "Content-Length": Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

/**
 * Sends `value` as JSON with each secret replaced by "[redacted]" wherever it appears, in the form JSON.stringify
 * writes it (a record's member may hold what its organization's client echoed, the API secret included).
 */
export function sendJson(res: ServerResponse, status: number, value: unknown, secrets: readonly string[] = []): void {
  let text = JSON.stringify(value);
  for (const secret of secrets) if (secret) text = text.split(JSON.stringify(secret).slice(1, -1)).join("[redacted]");
  send(res, status, "application/json", text);
}

/** The error envelope the API uses, with the error's status. */
export function sendApiError(res: ServerResponse, error: ApiError): void {
  sendJson(res, error.status, {
    status: false,
    message: error.message,
    data: null,
    err_code: error.code,
    errors: error.errors,
  });
}

const BODY_LIMIT = 64 * 1024;

/** A JSON object body (64 KiB at most), read with the signing package's parser; {} when there is none. */
export async function readJsonBody(req: IncomingMessage): Promise<JsonObject> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw new ApiError(413, "INPUT_MALFORMED", "Request body too large");
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    throw new ApiError(400, "INPUT_MALFORMED", "The body is not JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new ApiError(400, "INPUT_MALFORMED", "The body must be a JSON object");
  return value as JsonObject;
}
