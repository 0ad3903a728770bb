// Stage 1: the raw bytes of the body, refused (413) past the size limit. An oversized body is drained, so the
// answer reaches a client still sending it, up to a hard limit past which the connection is dropped.
import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import { ApiError } from "../domain/api-error.js";

/** Past this, stop draining an oversized body and drop the connection. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

const EMPTY = Buffer.alloc(0);

export function bodyTooLarge(limitBytes: number): ApiError {
  return new ApiError(
    413,
    "INPUT_MALFORMED",
    `Request body too large: the limit is ${limitBytes} bytes`,
    { non_field_errors: [`The body must be at most ${limitBytes} bytes.`] },
    { Connection: "close" },
  );
}

/**
 * The body's bytes (empty when none is announced); rejects with the 413 ApiError once the whole oversized body
 * has been drained, or with the stream's error when the connection fails.
 */
export function readBody(req: Readable & { headers: IncomingHttpHeaders }, limitBytes: number): Promise<Buffer> {
  const lengthHeader = req.headers["content-length"];
  // No body announced (the usual GET and DELETE): answer without waiting for the stream's end event.
  if ((lengthHeader === undefined || lengthHeader === "0") && req.headers["transfer-encoding"] === undefined) {
    req.resume();
    return Promise.resolve(EMPTY);
  }
  return new Promise((resolve, reject) => {
    const declared = Number(lengthHeader);
    let size = 0;
    let tooLarge = Number.isFinite(declared) && declared > limitBytes;
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) tooLarge = true;
      if (tooLarge) {
        chunks.length = 0;
        if (size > DRAIN_LIMIT_BYTES) req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("error", reject);
    req.on("end", () => {
      if (tooLarge) reject(bodyTooLarge(limitBytes));
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
  });
}
