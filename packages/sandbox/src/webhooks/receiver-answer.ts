// What a receiver answered to a delivery attempt, as kept on the attempt: the first 1 KB of its body as text, with
// the organization's secret and the attempt's signature taken out in every form (../secrets/redact.ts: a receiver
// that echoes its request must not put them into the event log, the dashboard or `logs --events`).
import { capBody, redactionWindow } from "../secrets/redact.js";

/** The most of a receiver's body an attempt keeps, in bytes. */
export const RESPONSE_BODY_LIMIT = 1024;

/**
 * How many bytes of the answer to collect: the limit, and past it as far as a secret that starts before it can
 * reach, so that redaction sees it whole.
 */
export function answerWindow(secrets: readonly string[]): number {
  return redactionWindow(RESPONSE_BODY_LIMIT, secrets);
}

/**
 * The body text an attempt keeps: each secret replaced by "[redacted]" first (so a secret straddling the cut leaves
 * no part of itself), then at most RESPONSE_BODY_LIMIT bytes, with a note when the receiver sent more.
 *
 * @example
 * keptResponseBody(Buffer.from('{"error":"bad signature s3cr3t"}'), 31, ["s3cr3t"]); // '{"error":"bad signature [redacted]"}'
 */
export function keptResponseBody(head: Buffer, total: number, secrets: readonly string[]): string {
  const capped = capBody(head, RESPONSE_BODY_LIMIT, secrets);
  // A character the cut split decodes as U+FFFD: dropped rather than shown broken.
  const kept = capped.truncated ? capped.text.replace(/\uFFFD$/, "") : capped.text;
  return total > RESPONSE_BODY_LIMIT ? `${kept}… (${total} bytes in all)` : kept;
}

/** Collects the start of a streamed body: the first `keep` bytes, and the count of all bytes. */
export class BodyHead {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  total = 0;

  constructor(private readonly keep: number) {}

  add(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.keep - this.kept;
    if (room <= 0) return;
    const part = chunk.subarray(0, room);
    this.chunks.push(part);
    this.kept += part.length;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}
