// What an answer's text means: the call's result, or the failure it is.
import { parseJson } from "@exchange-kit/signing";
import type { OperationRef } from "./errors.js";
import { errorEnvelope, type Failed, notAnEnvelope } from "./failed-attempt.js";
import type { Redactor } from "./redact.js";
import type { Sent } from "./transport-types.js";

/**
 * The envelope in an answer's text: `{ status: true, data }`, or `status: false` with err_code, message and errors.
 * Undefined for anything else (not JSON, a proxy's HTML page, JSON without a boolean `status`).
 */
function envelopeIn(text: string): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch {
    return undefined;
  }
  const isEnvelope =
    parsed !== null && typeof parsed === "object" && typeof (parsed as { status?: unknown }).status === "boolean";
  return isEnvelope ? (parsed as Record<string, unknown>) : undefined;
}

const utf8 = new TextEncoder();

/**
 * client.raw's answer, for openapi-fetch to parse: a Response whose `json()` reads keys with escapes correctly
 * (parseJson from @exchange-kit/signing). Made with `new Response` and an own `json`, not a subclass: a class
 * extending Response would read the global at import, and loading it (undici, in Node) was most of the client's
 * import time. Text with a backslash may hold an escaped key: with a Content-Length, openapi-fetch reads a success
 * through answer.json() (the safe reader) instead of its own JSON.parse (an error answer it always reads with
 * JSON.parse). Other text is safe for JSON.parse and skips the encoding.
 */
function rawAnswer(response: Response, text: string): Response {
  let headers = response.headers;
  if (text.includes("\\")) {
    headers = new Headers(response.headers);
    headers.set("content-length", String(utf8.encode(text).byteLength));
  }
  const answer = new Response(text, { status: response.status, statusText: response.statusText, headers });
  // openapi-fetch reads the answer once, through one of these: from the text in hand, not back through a stream.
  answer.text = async () => text;
  answer.json = async () => parseJson(text);
  return answer;
}

/**
 * The result or failure an answer is, once read: the envelope's data for a success; for client.raw (`raw`), the
 * answer itself (a success is not parsed here: openapi-fetch parses it once, for the caller), and on an error the
 * failure carries it.
 */
export function classifyAnswer(
  response: Response,
  text: string,
  operation: OperationRef,
  redact: Redactor,
  raw: boolean,
): Sent | Failed {
  const answer = raw ? rawAnswer(response, text) : undefined;
  if (answer !== undefined && response.ok) return { data: undefined, response: answer };
  const envelope = envelopeIn(text);
  if (envelope === undefined) return notAnEnvelope(response, text, operation, redact, answer);
  if (response.ok && envelope.status === true) return { data: envelope.data, response };
  return errorEnvelope(response, envelope, operation, redact, answer);
}
