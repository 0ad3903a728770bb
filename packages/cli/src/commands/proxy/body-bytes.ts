// The bytes of a body as the contract check reads them: collected alongside the forwarding (never instead of it),
// up to a limit, and decoded from their Content-Encoding. What is forwarded is always the bytes as they came.
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";

/** Bodies larger than this are forwarded but not checked (the check holds a whole body in memory). */
export const MAX_CHECKED_BYTES = 16 * 1024 * 1024;

/** Collects the chunks of a body up to MAX_CHECKED_BYTES; `bytes()` is undefined when it went over. */
export function collector(limit = MAX_CHECKED_BYTES) {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    add(chunk: Buffer): void {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    },
    bytes: (): Buffer | undefined => (size <= limit ? Buffer.concat(chunks) : undefined),
  };
}

const DECODERS: Record<string, (bytes: Buffer) => Buffer> = {
  gzip: gunzipSync,
  "x-gzip": gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * The body decoded from its Content-Encoding (gzip, deflate, br, or several in order), or undefined when an
 * encoding is unknown or the bytes do not decode.
 *
 * @example
 * decodeBody(gzipSync('{"a":1}'), "gzip").toString(); // '{"a":1}'
 */
export function decodeBody(bytes: Buffer, contentEncoding: string | undefined): Buffer | undefined {
  const codings = (contentEncoding ?? "")
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity");
  let out = bytes;
  try {
    for (const coding of codings.reverse()) {
      const decode = DECODERS[coding];
      if (!decode) return undefined;
      out = decode(out);
    }
  } catch {
    return undefined;
  }
  return out;
}
