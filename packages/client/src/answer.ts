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

type AnsweredResponseClass = new (text: string, init: ResponseInit) => Response;
let answeredResponse: AnsweredResponseClass | undefined;

/**
 * The class of client.raw's answers, made on the first raw answer: a Response whose body is the text already read.
 * Made then, not at import: a class extending Response reads the global, and loading it (undici, in Node) was most
 * of the client's import time. `new Response(text)` builds a body stream (about 15 µs, most of what client.raw
 * cost over a resource method); this one starts with none, reads `text()` and `json()` from the text in hand
 * (json() with parseJson: keys with escapes read correctly), and builds the real body only when something asks for
 * it (`body`, `arrayBuffer()`, `blob()`, `bytes()`, `formData()`, `clone()`).
 */
function answeredResponseClass(): AnsweredResponseClass {
  answeredResponse ??= class AnsweredResponse extends Response {
    readonly #text: string;
    readonly #init: ResponseInit;
    #real: Response | undefined;

    constructor(text: string, init: ResponseInit) {
      super(null, init);
      this.#text = text;
      this.#init = init;
    }

    /** The same answer with its body as a stream, made once, when a caller asks for more than its text. */
    #withBody(): Response {
      this.#real ??= new Response(this.#text, this.#init);
      return this.#real;
    }

    override get body() {
      return this.#withBody().body;
    }
    override get bodyUsed(): boolean {
      return this.#real?.bodyUsed ?? false;
    }
    override text(): Promise<string> {
      return Promise.resolve(this.#text);
    }
    override json(): Promise<unknown> {
      const text = this.#text;
      return new Promise((resolve) => resolve(parseJson(text)));
    }
    override arrayBuffer(): Promise<ArrayBuffer> {
      return this.#withBody().arrayBuffer();
    }
    override blob(): Promise<Blob> {
      return this.#withBody().blob();
    }
    override bytes() {
      return this.#withBody().bytes();
    }
    override formData(): Promise<FormData> {
      return this.#withBody().formData();
    }
    override clone(): Response {
      return this.#withBody().clone();
    }
  };
  return answeredResponse;
}

/**
 * client.raw's answer, for openapi-fetch to parse. Text with a backslash may hold an escaped key: with a
 * Content-Length, openapi-fetch reads a success through answer.json() (the safe reader) instead of its own
 * JSON.parse (an error answer it always reads with JSON.parse). Other text is safe for JSON.parse and skips the
 * encoding.
 */
function rawAnswer(response: Response, text: string): Response {
  let headers = response.headers;
  if (text.includes("\\")) {
    headers = new Headers(response.headers);
    headers.set("content-length", String(utf8.encode(text).byteLength));
  }
  const AnsweredResponse = answeredResponseClass();
  return new AnsweredResponse(text, { status: response.status, statusText: response.statusText, headers });
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
