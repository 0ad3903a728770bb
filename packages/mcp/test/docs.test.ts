// The reference as resources and search_docs: every guide and every operation's page, found by what it says.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { docResources, excerpt, searchDocs } from "../src/docs.js";
import { generatedTools } from "../src/generated/tools.js";

const guidesDir = fileURLToPath(new URL("../../../docs/guides/", import.meta.url));

describe("the resources", () => {
  it("are every guide of docs/guides, then one reference page per operation", () => {
    const guides = readdirSync(guidesDir)
      .filter((name) => name.endsWith(".md"))
      .map((name) => `exchange-kit://guides/${name.slice(0, -3)}`)
      .sort();
    expect(docResources.map((doc) => doc.uri)).toEqual([
      ...guides,
      ...generatedTools.map((tool) => `exchange-kit://reference/${tool.name}`),
    ]);
  });

  it("give an operation's page its method, path, retry class and err_codes", () => {
    const page = docResources.find((doc) => doc.uri === "exchange-kit://reference/createBankAccount")!.text;
    expect(page).toContain("`POST /cms/api/v1/bank/create`");
    expect(page).toContain("retry class `unsafe`");
    expect(page).toContain("BANK_DUPLICATE_ACCOUNT");
  });
});

describe("search_docs", () => {
  const uris = async (query: string) =>
    ((await searchDocs({ query }, 60_000)).structuredContent as { matches: Array<{ uri: string }> }).matches.map(
      (m) => m.uri,
    );

  it.each([
    ["why are orders gated allow-orders", "exchange-kit://guides/mcp"],
    ["verify webhook signature deduplicate", "exchange-kit://guides/webhooks"],
    ["initiate payout", "exchange-kit://reference/initiatePayout"],
    ["DROP_AFTER_COMMIT fault", "exchange-kit://guides/testing-failures"],
  ])("finds %s in %s among the first three", async (query, uri) =>
    expect((await uris(query)).slice(0, 3)).toContain(uri),
  );

  it("answers a query without words with an error that says what it needs", async () => {
    const result = await searchDocs({ query: "  " }, 60_000);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain("search_docs needs a query");
  });

  it("quotes the lines that matched", () =>
    expect(excerpt("a\nthe webhook URL\nb\nWEBHOOK again", ["webhook"])).toBe("the webhook URL\nWEBHOOK again"));
});
