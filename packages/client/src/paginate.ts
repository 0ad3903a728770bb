/** A page as list operations return it. */
interface PageLike {
  readonly results?: unknown;
  readonly next?: unknown;
}

/**
 * Yields every record of every page, following `next`. `fetchPage` gets the
 * query of the page to fetch: the caller's query, overlaid with the query of
 * the `next` URL (so the page number and any filters the server carries over).
 * The next URL's host is not used: every page goes to the client's base URL,
 * signed like any request.
 */
export async function* paginate<T>(
  fetchPage: (query: Record<string, unknown>) => Promise<unknown>,
  query: Record<string, unknown>,
): AsyncGenerator<T, void, undefined> {
  let current = query;
  let seen = "";
  for (;;) {
    const page = (await fetchPage(current)) as PageLike | null;
    const results = Array.isArray(page?.results) ? (page.results as T[]) : [];
    for (const record of results) yield record;
    const next = page?.next;
    if (typeof next !== "string" || next === "" || results.length === 0) return;
    const overlay = queryOfUrl(next);
    const key = JSON.stringify(overlay);
    // A next URL that does not move on would loop forever.
    if (key === seen || Object.keys(overlay).length === 0) return;
    seen = key;
    current = { ...current, ...overlay };
  }
}

/** The query of a URL (absolute or relative), integers as numbers. */
function queryOfUrl(url: string): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [key, value] of new URL(url, "http://next.invalid").searchParams) {
    out[key] = /^\d{1,15}$/.test(value) ? Number(value) : value;
  }
  return out;
}
