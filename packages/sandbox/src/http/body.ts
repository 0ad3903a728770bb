// Stages 2 and 4: the body's text, refused before anything reads it when it is not UTF-8 or nested deeper than
// the limit; then, once the request is authenticated, the JSON object it holds.
import { parseJson } from "@exchange-kit/signing";
import { jsonDepthExceeds, MAX_JSON_DEPTH } from "../json/nesting-depth.js";
import { ApiError } from "../domain/api-error.js";
import type { JsonObject } from "../api/route.js";

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The body as text (undefined when there is none): 400 INPUT_MALFORMED for bytes that are not UTF-8 or JSON
 * nested past MAX_JSON_DEPTH. Runs before authentication, so such a body answers 400 whatever its signature.
 */
export function decodeBody(raw: Buffer): string | undefined {
  if (raw.length === 0) return undefined;
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    throw new ApiError(400, "INPUT_MALFORMED", "The body is not valid UTF-8", {
      non_field_errors: ["Send the body as UTF-8 JSON text."],
    });
  }
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new ApiError(400, "INPUT_MALFORMED", `JSON nested too deeply: at most ${MAX_JSON_DEPTH} levels`, {
      non_field_errors: [`Arrays and objects may be nested at most ${MAX_JSON_DEPTH} levels deep.`],
    });
  }
  return text;
}

/**
 * The JSON object the body holds (keys read correctly, see parseJson); 400 INPUT_MALFORMED otherwise. GET and
 * HEAD bodies, and absent ones, are the empty object: nothing reads them.
 */
export function parseBody(method: string, text: string | undefined): JsonObject {
  if (text === undefined || method === "GET" || method === "HEAD") return {};
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch {
    throw new ApiError(400, "INPUT_MALFORMED", "Malformed JSON body", {
      non_field_errors: ["The body is not valid JSON."],
    });
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ApiError(400, "INPUT_MALFORMED", "The body must be a JSON object", {
      non_field_errors: ["The body must be a JSON object."],
    });
  }
  return parsed as JsonObject;
}
