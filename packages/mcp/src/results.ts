// Tool results as the model reads them: the structured answer, and a text that says what it is, how to get the
// next page, what moved, and where it was cut. Pure functions of the answer, tested as tables.

/** An MCP tool result (the members this server sets). */
export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** The default bound of one result's text, in UTF-8 bytes. */
export const DEFAULT_MAX_RESULT_BYTES = 60_000;

const bytesOf = (text: string) => Buffer.byteLength(text, "utf8");

/** The page asked for and its size, from the call's arguments (the spec's defaults: 1 and 20). */
function pageOf(args: Record<string, unknown>): { page: number; perPage: number } {
  return {
    page: typeof args.page === "number" ? args.page : 1,
    perPage: typeof args.per_page === "number" ? args.per_page : 20,
  };
}

/**
 * The note of a paginated answer: which page this is and how to get the next one, or that it is the last.
 * Undefined for an answer that is not a paginated list (`count` and `results`).
 *
 * @example
 * pagingNote("listCustomers", { count: 45, results: [...20] }, { page: 1 }); // "page 1 of 3 (45 records): ..."
 */
export function pagingNote(tool: string, data: unknown, args: Record<string, unknown>): string | undefined {
  if (data === null || typeof data !== "object") return undefined;
  const { count, results } = data as { count?: unknown; results?: unknown };
  if (typeof count !== "number" || !Array.isArray(results)) return undefined;
  const { page, perPage } = pageOf(args);
  const pages = Math.max(1, Math.ceil(count / perPage));
  const head = `page ${page} of ${pages} (${count} records, ${perPage} per page)`;
  if (page >= pages) return `${head}: the last page`;
  return `${head}: call ${tool} with page: ${page + 1}${args.per_page === undefined ? "" : ` and per_page: ${perPage}`} for the next`;
}

/**
 * `data` cut to fit `maxBytes` as JSON: a list loses records from its end; anything else is kept whole and only
 * its text is cut (see resultOf). Returns the kept data and how many records were left out.
 */
export function fitList(data: unknown, maxBytes: number): { data: unknown; omitted: number } {
  if (data === null || typeof data !== "object" || !Array.isArray((data as { results?: unknown }).results))
    return { data, omitted: 0 };
  const results = (data as { results: unknown[] }).results;
  let kept = results.length;
  while (kept > 0 && bytesOf(JSON.stringify({ ...data, results: results.slice(0, kept) })) > maxBytes) kept--;
  return kept === results.length
    ? { data, omitted: 0 }
    : { data: { ...data, results: results.slice(0, kept) }, omitted: results.length - kept };
}

/** `text` cut at `maxBytes` (on a character boundary), with a note of what was left out. */
export function cutText(text: string, maxBytes: number): string {
  if (bytesOf(text) <= maxBytes) return text;
  const kept = Buffer.from(text, "utf8")
    .subarray(0, maxBytes)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  return `${kept}\n[cut: the answer is ${bytesOf(text)} bytes, over this server's bound of ${maxBytes}; the structured result holds it whole]`;
}

/** What the answer of an order says moved: the order, its status, its reference and its amounts. */
export function movedNote(
  kind: "payin" | "payout",
  order: { id?: unknown; status?: unknown; client_reference_id?: unknown; raw?: unknown },
): string {
  const raw = (order.raw ?? {}) as Record<string, unknown>;
  const amounts = Object.entries(raw)
    .filter(
      ([key, value]) =>
        /amount|currency|fiat|asset/.test(key) && (typeof value === "string" || typeof value === "number"),
    )
    .map(([key, value]) => `${key} ${value}`);
  return (
    `moved: ${kind} order ${String(order.id)} created (status ${String(order.status)}, client_reference_id ` +
    `${String(order.client_reference_id ?? "none")})${amounts.length > 0 ? `; ${amounts.join(", ")}` : ""}`
  );
}

/** A successful result: the structured answer, and its JSON as text after the notes. */
export function resultOf(structured: Record<string, unknown>, notes: readonly string[], maxBytes: number): ToolResult {
  const text = [...notes, JSON.stringify(structured, null, 1)].join("\n\n");
  return { content: [{ type: "text", text: cutText(text, maxBytes) }], structuredContent: structured };
}

/** A tool error: the model reads it and can act on it; nothing in it is the secret or a signature. */
export function errorResult(message: string, details?: Record<string, unknown>): ToolResult {
  const text = details === undefined ? message : `${message}\n\n${JSON.stringify(details, null, 1)}`;
  return { content: [{ type: "text", text }], isError: true };
}
