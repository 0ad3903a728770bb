// The bytes of a body as the contract check reads them: collected alongside the forwarding (never instead of it),
// up to a limit, and decoded from their Content-Encoding, with the inflated size bounded too: a few kilobytes of
// brotli can inflate to gigabytes. What is forwarded is always the bytes as they came.
import { promisify } from "node:util";
import { brotliDecompress, gunzip, inflate, type ZlibOptions } from "node:zlib";

/** Bodies larger than this, sent or inflated, are forwarded but not checked (the check holds a whole body in memory). */
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

type Decoder = (bytes: Buffer, options: ZlibOptions) => Promise<Buffer>;

// The asynchronous forms: inflating up to the limit takes a while, and the proxy's other exchanges go on meanwhile.
const DECODERS: Record<string, Decoder> = {
  gzip: promisify(gunzip) as Decoder,
  "x-gzip": promisify(gunzip) as Decoder,
  deflate: promisify(inflate) as Decoder,
  br: promisify(brotliDecompress) as Decoder,
};

/** A body as the check gets it: decoded, or the reason it is not checked. */
export type DecodedBody = { body: Buffer } | { unchecked: string };

const mebibytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/** Why a decoder failed, as the warning says it: past the limit (zlib stops there), or not that coding at all. */
function decodeFailure(error: unknown, coding: string, limit: number): string {
  const tooLarge = (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE";
  return tooLarge ? `inflates past ${mebibytes(limit)} (${coding})` : `not valid ${coding}`;
}

/**
 * The body decoded from its Content-Encoding (gzip, deflate, br, or several in order), each step stopped once its
 * output passes `limit` bytes; or why it is not checked: an unknown encoding, bytes that do not decode, or a body
 * that inflates past the limit.
 *
 * @example
 * await decodeBody(gzipSync('{"a":1}'), "gzip"); // { body: <Buffer 7b 22 61 22 3a 31 7d> }
 * await decodeBody(brotliBomb, "br"); // { unchecked: "inflates past 16 MiB (br)" }
 */
export async function decodeBody(
  bytes: Buffer,
  contentEncoding: string | undefined,
  limit = MAX_CHECKED_BYTES,
): Promise<DecodedBody> {
  const codings = (contentEncoding ?? "")
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity");
  let out = bytes;
  for (const coding of codings.reverse()) {
    const decode = DECODERS[coding];
    if (!decode) return { unchecked: `unknown Content-Encoding ${JSON.stringify(coding)}` };
    try {
      out = await decode(out, { maxOutputLength: limit });
    } catch (error) {
      return { unchecked: decodeFailure(error, coding, limit) };
    }
  }
  return { body: out };
}

/** What the check gets of a collected body: decoded, or why not (over the limit as sent, or see decodeBody). */
export function checkedBody(raw: Buffer | undefined, contentEncoding: string | undefined): Promise<DecodedBody> {
  if (raw === undefined) return Promise.resolve({ unchecked: `over ${mebibytes(MAX_CHECKED_BYTES)}` });
  return decodeBody(raw, contentEncoding);
}
