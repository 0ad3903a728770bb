// The reference as MCP resources (each guide, each operation's page) and `search_docs` over them. The index is
// MiniSearch's (BM25 ranking, prefix and fuzzy matching), loaded and built on the first search, not at start.
import type MiniSearch from "minisearch";
import { docResources } from "./generated/docs.js";
import { errorResult, resultOf, type ToolResult } from "./results.js";
import type { DocResource } from "./tool-types.js";

export { docResources };

let index: Promise<MiniSearch<DocResource>> | undefined;

function searchIndex(): Promise<MiniSearch<DocResource>> {
  index ??= import("minisearch").then(({ default: Search }) => {
    const built = new Search<DocResource>({
      idField: "uri",
      fields: ["title", "text"],
      storeFields: ["title"],
      searchOptions: { boost: { title: 3 }, prefix: true, fuzzy: 0.15 },
    });
    built.addAll([...docResources]);
    return built;
  });
  return index;
}

/** The lines of `text` that hold one of `terms`, the first few, as a short excerpt. */
export function excerpt(text: string, terms: readonly string[], maxLines = 3): string {
  const lower = terms.map((t) => t.toLowerCase());
  const lines = text.split("\n").filter((line) => lower.some((t) => line.toLowerCase().includes(t)));
  return lines
    .slice(0, maxLines)
    .map((line) => (line.length > 240 ? `${line.slice(0, 240)}…` : line))
    .join("\n");
}

/** The search_docs tool's definition. */
export const searchDocsTool = {
  name: "search_docs",
  title: "Search the exchange-kit reference",
  description:
    "Searches the guides and the reference page of every operation (the resources of this server) and answers " +
    "the best matches with their resource URI (read it with resources/read) and the lines that matched.",
  inputSchema: {
    type: "object" as const,
    properties: {
      query: { type: "string", minLength: 1, description: "Words to look for, e.g. 'webhook signature retry'." },
      limit: { type: "integer", minimum: 1, maximum: 20, description: "At most this many matches (default 5)." },
    },
    required: ["query"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/**
 * Runs search_docs.
 *
 * @example
 * searchDocs({ query: "initiate payin" }, 60_000).structuredContent; // { matches: [{ uri, title, score, excerpt }] }
 */
export async function searchDocs(args: Record<string, unknown>, maxBytes: number): Promise<ToolResult> {
  if (typeof args.query !== "string" || args.query.trim() === "")
    return errorResult("search_docs needs a query: a few words to look for");
  const limit = typeof args.limit === "number" ? Math.min(20, Math.max(1, Math.trunc(args.limit))) : 5;
  const hits = (await searchIndex()).search(args.query).slice(0, limit);
  const byUri = new Map(docResources.map((doc) => [doc.uri, doc]));
  const matches = hits.map((hit) => ({
    uri: hit.id as string,
    title: hit.title as string,
    score: Math.round(hit.score * 100) / 100,
    excerpt: excerpt(byUri.get(hit.id as string)!.text, hit.terms),
  }));
  const note = matches.length === 0 ? "no match: try other words" : `${matches.length} match(es)`;
  return resultOf({ matches }, [note], maxBytes);
}
