// What stays the same across a call's attempts, worked out once: the URL, the body text, the limits.
import { canonicalize } from "@exchange-kit/signing";
import type { Pipeline, PreparedCall } from "./attempt.js";
import { ExchangeValidationError } from "./errors.js";
import { checkCallBounds } from "./options-bounds.js";
import { callUrl } from "./query-string.js";
import type { Call } from "./transport-types.js";

/** The body to sign and send: client.raw's serialized text as it is, else the canonical JSON of the value. */
function bodyOf(call: Call, name: string): string | undefined {
  if (call.bodyText !== undefined || call.body === undefined) return call.bodyText;
  try {
    // The exact string that is signed is the string that is sent.
    return canonicalize(call.body);
  } catch (cause) {
    const message = (cause as Error).message;
    throw new ExchangeValidationError(`${name}: the body is not JSON: ${message}`, { body: [message] }, call.operation);
  }
}

/**
 * The URL of a call: client.raw's as built, else base + filled-in path + query (extraQuery last). One query writer
 * for every path (resource methods, client.request, client.raw), written as openapi-fetch writes it.
 */
function urlOf(call: Call, baseUrl: string): string {
  if (call.url !== undefined) return call.url;
  const extra = call.options?.extraQuery;
  const query = extra === undefined ? (call.query ?? {}) : { ...call.query, ...extra };
  return callUrl(baseUrl, call.path, query);
}

/**
 * The call's per-call options checked and merged with the client's, its URL and body built, its deadline fixed
 * (the earlier of its own and an enclosing helper's). Throws ExchangeValidationError for an option out of bounds
 * or a body that is not JSON: nothing is sent.
 */
export function prepareCall(pipe: Pipeline, call: Call): PreparedCall {
  const { operation, options = {} } = call;
  const { settings } = pipe;
  checkCallBounds(options, operation);
  const started = Date.now();
  const deadlineMs = options.deadlineMs ?? settings.deadlineMs;
  const deadlineAt = Math.min(call.deadlineAt ?? Infinity, started + (deadlineMs ?? Infinity));
  const name = operation.operationId ?? operation.path;
  return {
    call,
    operation,
    name,
    url: urlOf(call, settings.baseUrl),
    body: bodyOf(call, name),
    options,
    timeoutMs: options.timeoutMs ?? settings.timeoutMs,
    maxRetries: options.maxRetries ?? settings.maxRetries,
    deadlineAt,
    deadlineMs: deadlineAt - started,
    answerAs: call.answerAs,
  };
}
