// Reading the sandbox's logs over its signed control API: the requests from a cursor, page after page, with a
// warning when the log dropped entries before they were read; the events, re-read and diffed. While the sandbox
// is away, following waits for it (reconnect.ts) and goes on from the same cursor.
import type { ExchangeClient } from "@exchange-kit/client";
import type { RequestLogEntry } from "@exchange-kit/sandbox";
import type { EventView } from "./event-lines.js";
import { pause } from "./pause.js";
import { type Reconnecting, readUntilBack } from "./reconnect.js";

/** The answer of GET /_sandbox/requests. */
export interface RequestLogPage {
  count: number;
  results: RequestLogEntry[];
  oldest_seq: number;
  latest_seq: number;
}

export const PAGE_LIMIT = 1000;

export function readRequests(client: ExchangeClient, query: Record<string, string | number>, signal: AbortSignal) {
  return client.request<RequestLogPage>("GET", "/_sandbox/requests", { query, signal });
}

export async function readEvents(client: ExchangeClient, signal: AbortSignal): Promise<EventView[]> {
  return (await client.request<{ results: EventView[] }>("GET", "/_sandbox/events", { signal })).results;
}

/** Where following goes on after a page: the last entry read, or the newest kept when the page held every match. */
export function nextCursor(page: RequestLogPage, cursor: number, limit: number): number {
  const last = page.results[page.results.length - 1]?.seq ?? cursor;
  return page.results.length >= limit ? last : Math.max(last, page.latest_seq, cursor);
}

/** How many entries after `cursor` the log dropped before they were read (0 when none). */
export function droppedSince(page: RequestLogPage, cursor: number): number {
  return page.oldest_seq > cursor + 1 ? page.oldest_seq - cursor - 1 : 0;
}

/**
 * Whether the log starts over below `cursor`: its newest number is lower than one already read, which only a
 * new log does (a sandbox without --db, in memory, restarted and numbers from 1 again).
 *
 * @example
 * logStartedOver({ latest_seq: 3, ... }, 120); // true: read it from its first entry
 */
export function logStartedOver(page: RequestLogPage, cursor: number): boolean {
  return page.latest_seq < cursor;
}

export interface Follower {
  /** Called with each page's entries, oldest first, and with the number dropped before a page. */
  entries(entries: RequestLogEntry[]): void;
  dropped(count: number): void;
  /** Called when the log started over (logStartedOver): following goes on from its first entry. */
  startedOver(): void;
}

/**
 * Follows the request log from `cursor` until `signal` aborts: reads on at once while pages are full, and every
 * `intervalMs` otherwise. Entries come in their order, each once; a gap the log's bound made is reported. While
 * the sandbox is away the follower is told once, reads are tried again with backoff, and the cursor is kept, so
 * the entries answered meanwhile and after come once each when it is back (all of a new log's, when it started
 * over).
 */
export async function followRequests(
  client: ExchangeClient,
  filters: Record<string, string>,
  start: { cursor: number } & Reconnecting,
  follower: Follower,
): Promise<void> {
  let cursor = start.cursor;
  const { signal } = start;
  while (!signal.aborted) {
    const query = { ...filters, order: "asc", after: cursor, limit: PAGE_LIMIT };
    const page = await readUntilBack(() => readRequests(client, query, signal), start);
    if (!page) return;
    if (logStartedOver(page, cursor)) {
      follower.startedOver();
      cursor = 0;
      continue;
    }
    const dropped = droppedSince(page, cursor);
    if (dropped > 0) follower.dropped(dropped);
    if (page.results.length > 0) follower.entries(page.results);
    cursor = nextCursor(page, cursor, PAGE_LIMIT);
    if (page.results.length < PAGE_LIMIT) await pause(start.intervalMs, signal);
  }
}

/**
 * Re-reads the event log every `intervalMs` until `signal` aborts, handing each answer to `read`; while the
 * sandbox is away, waits for it as followRequests does.
 */
export async function followEvents(
  client: ExchangeClient,
  reconnecting: Reconnecting,
  read: (events: EventView[]) => void,
): Promise<void> {
  const { signal } = reconnecting;
  while (!signal.aborted) {
    await pause(reconnecting.intervalMs, signal);
    const events = signal.aborted ? undefined : await readUntilBack(() => readEvents(client, signal), reconnecting);
    if (events) read(events);
  }
}
