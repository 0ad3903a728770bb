import type { ReceivedWebhookEvent } from "./events.js";
import { parseJson } from "./signing.js";

// What the inbox writes into its store: the verified event as JSON (the values JSON.parse gave, so writing
// them again changes nothing), under its dedup key; and, for a parked event, a note of why.

/** An accepted event as the inbox keeps it. */
export interface InboxRecord {
  /** The dedup key it was accepted under (`id:event:timestamp` by default). */
  key: string;
  event: ReceivedWebhookEvent;
}

/** Why an event was parked. */
export interface ParkedNote {
  attempts: number;
  error: string;
  /** Milliseconds since the epoch, on the inbox's clock. */
  parkedAt: number;
}

export const encodeRecord = (key: string, event: ReceivedWebhookEvent): string => JSON.stringify({ key, event });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The record written by encodeRecord; a TypeError for anything else (a store holding foreign data). */
export function decodeRecord(text: string): InboxRecord {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    // reported below without the text, which holds the event
  }
  const event = isObject(value) ? value.event : undefined;
  if (!isObject(value) || typeof value.key !== "string" || !isObject(event) || typeof event.id !== "string") {
    throw new TypeError("an inbox entry is not an event record written by createInbox");
  }
  return { key: value.key, event: event as unknown as ReceivedWebhookEvent };
}

/** The error's message, bounded: a note is for reading, not a dump. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
}

export const encodeNote = (note: ParkedNote): string => JSON.stringify(note);

/** The note written by encodeNote, or an empty one when it is unreadable (the event still replays). */
export function decodeNote(text: string | undefined): ParkedNote {
  try {
    const value = parseJson(text ?? "");
    if (isObject(value)) {
      return { attempts: Number(value.attempts), error: String(value.error), parkedAt: Number(value.parkedAt) };
    }
  } catch {
    // an unreadable note: the record is what matters
  }
  return { attempts: 0, error: "(no note)", parkedAt: 0 };
}

/**
 * How long to wait before run number `attempt + 1`, after run `attempt` failed: `firstMs`, doubling each
 * run, never more than `maxMs`.
 */
export function retryDelayMs(attempt: number, firstMs: number, maxMs: number): number {
  return Math.min(firstMs * 2 ** Math.min(attempt - 1, 52), maxMs);
}
