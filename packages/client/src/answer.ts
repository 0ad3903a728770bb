// What an answer's text means: the call's result, or the failure it is.
import { parseJson } from "@exchange-kit/signing";
import type { OperationRef } from "./errors.js";
import { errorEnvelope, type Failed, notAnEnvelope } from "./failed-attempt.js";
import type { Redactor } from "./redact.js";
import type { AnswerAs, Sent } from "./transport-types.js";

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

/**
 * The result or failure an answer is, once read: the envelope's data for a success; for client.raw (`answerAs`),
 * the answer itself as answerAs makes it (a success is not parsed here: openapi-fetch parses it once, for the
 * caller), and on an error the failure carries it.
 */
export function classifyAnswer(
  response: Response,
  text: string,
  operation: OperationRef,
  redact: Redactor,
  answerAs: AnswerAs | undefined,
): Sent | Failed {
  const answer = answerAs?.(response, text);
  if (answer !== undefined && response.ok) return { data: undefined, response: answer };
  const envelope = envelopeIn(text);
  if (envelope === undefined) return notAnEnvelope(response, text, operation, redact, answer);
  if (response.ok && envelope.status === true) return { data: envelope.data, response };
  return errorEnvelope(response, envelope, operation, redact, answer);
}
