// Reading the sandbox's logs over its signed control API: the requests from a cursor, page after page, with a
// warning when the log dropped entries before they were read; the events, re-read and diffed.
import type { ExchangeClient } from "@exchange-kit/client";
import type { RequestLogEntry } from "@exchange-kit/sandbox";
import type { EventView } from "./event-lines.js";

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

/** Waits `ms`, or less when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
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

export interface Follower {
  /** Called with each page's entries, oldest first, and with the number dropped before a page. */
  entries(entries: RequestLogEntry[]): void;
  dropped(count: number): void;
}

/**
 * Follows the request log from `cursor` until `signal` aborts: reads on at once while pages are full, and every
 * `intervalMs` otherwise. Entries come in their order, each once; a gap the log's bound made is reported.
 */
export async function followRequests(
  client: ExchangeClient,
  filters: Record<string, string>,
  start: { cursor: number; intervalMs: number; signal: AbortSignal },
  follower: Follower,
): Promise<void> {
  let cursor = start.cursor;
  const { signal } = start;
  while (!signal.aborted) {
    const page = await readRequests(client, { ...filters, order: "asc", after: cursor, limit: PAGE_LIMIT }, signal);
    const dropped = droppedSince(page, cursor);
    if (dropped > 0) follower.dropped(dropped);
    if (page.results.length > 0) follower.entries(page.results);
    cursor = nextCursor(page, cursor, PAGE_LIMIT);
    if (page.results.length < PAGE_LIMIT) await pause(start.intervalMs, signal);
  }
}
