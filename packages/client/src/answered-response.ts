// client.raw's answers: loaded with openapi-fetch on the first raw call (raw-calls.ts), not with the client.
import { parseJson } from "@exchange-kit/signing";

const utf8 = new TextEncoder();

/**
 * A client.raw answer: a Response whose body is the text already read. `new Response(text)` builds a body stream
 * (about 15 µs, most of what client.raw cost over a resource method); this one starts with none, reads `text()` and
 * `json()` from the text in hand (json() with parseJson: keys with escapes read correctly), and builds the real body
 * only when something asks for it (`body`, `arrayBuffer()`, `blob()`, `bytes()`, `formData()`, `clone()`).
 * Extending Response at load is fine here: this module loads with the first raw call, which fetches anyway.
 */
class AnsweredResponse extends Response {
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
}

/**
 * client.raw's answer, for openapi-fetch to parse: the service's status and headers, the text already read. Text
 * with a backslash may hold an escaped key: with a Content-Length, openapi-fetch reads a success through
 * answer.json() (the safe reader) instead of its own JSON.parse (an error answer it always reads with JSON.parse).
 * Other text is safe for JSON.parse and skips the encoding.
 */
export function rawAnswer(response: Response, text: string): Response {
  let headers = response.headers;
  if (text.includes("\\")) {
    headers = new Headers(response.headers);
    headers.set("content-length", String(utf8.encode(text).byteLength));
  }
  return new AnsweredResponse(text, { status: response.status, statusText: response.statusText, headers });
}
