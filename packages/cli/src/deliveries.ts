import { parseJson } from "@exchange-kit/signing";
import { UsageError } from "./output.js";

/** One saved delivery: the headers as received and the raw body text. */
export interface SavedDelivery {
  headers: Record<string, string>;
  body: string;
}

const SHAPE = 'a delivery must be {"headers": {...}, "body": "<the raw body as a string>"}';

function toDelivery(value: unknown, where: string): SavedDelivery {
  const saved = value as { headers?: unknown; body?: unknown } | null;
  if (
    !saved ||
    typeof saved !== "object" ||
    typeof saved.body !== "string" ||
    !saved.headers ||
    typeof saved.headers !== "object"
  ) {
    throw new UsageError(`${where}: ${SHAPE}`);
  }
  return { headers: saved.headers as Record<string, string>, body: saved.body };
}

/**
 * The deliveries of a file: one JSON object (pretty-printed or not), or JSON lines, one delivery per line, as
 * `exchange-kit listen --save` appends them.
 *
 * @example
 * readDeliveries('{"headers":{"X-TIMESTAMP":"1","X-SIGNATURE":"s"},"body":"{}"}\n'); // [{ headers, body: "{}" }]
 */
export function readDeliveries(text: string, file: string): SavedDelivery[] {
  const trimmed = text.trim();
  if (!trimmed) throw new UsageError(`${file} is empty: ${SHAPE}`);
  try {
    return [toDelivery(parseJson(trimmed), file)];
  } catch (whole) {
    if (whole instanceof UsageError) throw whole;
    const lines = trimmed.split("\n").map((l) => l.trim());
    if (lines.length < 2) throw new UsageError(`${file} is not JSON: ${(whole as Error).message}`);
    return lines
      .map((line, i) => ({ line, where: `${file} line ${i + 1}` }))
      .filter(({ line }) => line !== "")
      .map(({ line, where }) => {
        let value: unknown;
        try {
          value = parseJson(line);
        } catch (error) {
          if (error instanceof UsageError) throw error;
          throw new UsageError(`${where} is not JSON: ${(error as Error).message}`);
        }
        return toDelivery(value, where);
      });
  }
}
