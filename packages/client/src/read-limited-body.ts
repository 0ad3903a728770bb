// An answer is read only up to maxResponseBytes: Response.text() would buffer an endless or huge body whole (an
// endless body at 20 MB/s grew the heap by hundreds of MiB within one 30 s attempt, and again on each retry).

/** Thrown by readLimitedText when the answer is over the limit; the transport makes the typed error of it. */
export class BodyTooLarge extends Error {
  constructor(
    /** The Content-Length that declared more than the limit; undefined when reading stopped past it. */
    readonly declaredBytes: number | undefined,
  ) {
    super("the answer is larger than maxResponseBytes");
    this.name = "BodyTooLarge";
  }
}

// UTF-8 with the BOM stripped and bad sequences replaced, as Response.text() decodes. decode() without
// { stream: true } keeps no state between calls, so one decoder serves every answer.
const decoder = new TextDecoder();

/** Content-Length as a number, or undefined when it is absent or not one decimal integer. */
export function declaredLength(value: string | null): number | undefined {
  return value !== null && /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

/** The chunks as one array (no copy for the usual single chunk). */
function joined(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * The answer's body as text, read up to `maxBytes` bytes. Refuses at once, without reading, when Content-Length
 * declares more; otherwise stops at the first chunk past the limit and cancels the stream (undici then closes the
 * connection), so nothing past the limit is buffered. Content-Length counts the bytes on the wire; a compressed
 * answer is limited by its decoded size while it is read.
 *
 * @example
 * await readLimitedText(new Response("abc"), 2); // throws BodyTooLarge
 */
export async function readLimitedText(response: Response, maxBytes: number): Promise<string> {
  const { body } = response;
  const declared = declaredLength(response.headers.get("content-length"));
  if (declared !== undefined && declared > maxBytes) {
    await body?.cancel().catch(() => {});
    throw new BodyTooLarge(declared);
  }
  if (body === null) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return decoder.decode(joined(chunks, size));
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLarge(undefined);
    }
    chunks.push(value);
  }
}
