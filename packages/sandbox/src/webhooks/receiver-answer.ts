// What a receiver answered to a delivery attempt, as kept on the attempt: the first 1 KB of its body as text, with
// the organization's secret and the attempt's signature taken out (a receiver that echoes its request must not put
// them into the event log, the dashboard or `logs --events`).

/** The most of a receiver's body an attempt keeps, in bytes. */
export const RESPONSE_BODY_LIMIT = 1024;

const REDACTED = "[redacted]";

/** The forms a secret can take in a body: as is, and as JSON writes it (escaped quotes, backslashes, non-ASCII). */
function formsOf(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const ascii = json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return [...new Set([secret, json, ascii])].filter((form) => form.length > 0);
}

/** The longest form of any of the secrets, in bytes: how far past the limit the collector must read. */
export function redactionMargin(secrets: readonly string[]): number {
  return Math.max(0, ...secrets.flatMap(formsOf).map((form) => Buffer.byteLength(form)));
}

/** The text's first `limit` bytes, without a character the cut would split. */
function firstBytes(text: string, limit: number): string {
  const bytes = Buffer.from(text);
  if (bytes.length <= limit) return text;
  return new TextDecoder().decode(bytes.subarray(0, limit)).replace(/\uFFFD$/, "");
}

/**
 * The body text an attempt keeps: each secret replaced by "[redacted]" first (so a secret straddling the cut leaves
 * no part of itself), then at most RESPONSE_BODY_LIMIT bytes, with a note when the receiver sent more.
 *
 * @example
 * keptResponseBody(Buffer.from('{"error":"bad signature s3cr3t"}'), 31, ["s3cr3t"]); // '{"error":"bad signature [redacted]"}'
 */
export function keptResponseBody(head: Buffer, total: number, secrets: readonly string[]): string {
  let text = new TextDecoder().decode(head);
  for (const secret of secrets) for (const form of formsOf(secret)) text = text.split(form).join(REDACTED);
  const kept = firstBytes(text, RESPONSE_BODY_LIMIT);
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
