import { describe, expect, it } from "vitest";
import { ExchangeValidationError, listOperations } from "../src/index.js";
import { BASE_URL, CUSTOMER_ID, ok, testClient, type Recorded } from "./support/fake-fetch.js";

/** 23 payins, paged by the request's page and per_page, with `next` URLs like the service's. */
function pages(request: Recorded) {
  const all = Array.from({ length: 23 }, (_, i) => ({ id: `payin-${i}`, status: "SUCCESS" }));
  const page = Number(request.url.searchParams.get("page") ?? 1);
  const perPage = Number(request.url.searchParams.get("per_page") ?? 10);
  const next = new URL(request.url);
  next.searchParams.set("page", String(page + 1));
  return ok({
    count: all.length,
    next: page * perPage < all.length ? `http://internal-host:8000${next.pathname}${next.search}` : null,
    previous: null,
    results: all.slice((page - 1) * perPage, page * perPage),
  });
}

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterator) out.push(item);
  return out;
}

describe("pagination", () => {
  it("follows next across pages with .all()", async () => {
    const { client, calls } = testClient(pages);
    const payins = await collect(client.payins.listHistory.all({ per_page: 10 }));
    expect(payins.map((p) => p.id)).toEqual(Array.from({ length: 23 }, (_, i) => `payin-${i}`));
    expect(calls.map((c) => c.url.search)).toEqual(["?per_page=10", "?per_page=10&page=2", "?per_page=10&page=3"]);
  });

  it("sends every page to the client's base URL, not the host in next", async () => {
    const { client, calls } = testClient(pages);
    await collect(client.payins.listHistory.all({ per_page: 10 }));
    expect(new Set(calls.map((c) => c.url.origin))).toEqual(new Set([BASE_URL]));
  });

  it("offers payins.history and payouts.history as the list-history methods", async () => {
    const { client } = testClient(pages);
    expect(client.payins.history).toBe(client.payins.listHistory);
    expect(client.payouts.history).toBe(client.payouts.listHistory);
    expect(await collect(client.payouts.history.all({ per_page: 100 }))).toHaveLength(23);
  });

  it("forwards undeclared filters through extraQuery on every page", async () => {
    const { client, calls } = testClient(pages);
    await collect(client.payins.history.all({ per_page: 10, extraQuery: { status: "SUCCESS" } }));
    expect(calls.map((c) => c.url.searchParams.get("status"))).toEqual(["SUCCESS", "SUCCESS", "SUCCESS"]);
  });

  it("forwards extraQuery on a single call", async () => {
    const { client, calls } = testClient(pages);
    await client.payins.history({ page: 1, extraQuery: { status: "FAILED", ordering: "-created_at" } });
    expect(calls[0]!.url.search).toBe("?page=1&status=FAILED&ordering=-created_at");
  });

  it("gives every list method .all() and only list methods", () => {
    const { client } = testClient(pages);
    const groups = client as unknown as Record<string, Record<string, { all?: unknown }>>;
    for (const op of listOperations()) {
      const method = groups[op.group]![op.name]!;
      expect(typeof method.all === "function", op.operationId).toBe(op.queryParams.includes("page"));
    }
    expect(
      listOperations()
        .filter((op) => op.queryParams.includes("page"))
        .map((op) => op.operationId)
        .sort(),
    ).toEqual([
      "listBankAccounts",
      "listCustomers",
      "listPayinHistory",
      "listPayoutHistory",
      "listPrefundedPayoutHistory",
    ]);
  });

  it("pages through a customer's bank accounts with the path parameter first", async () => {
    const { client, calls } = testClient(pages);
    expect(await collect(client.banks.list.all(CUSTOMER_ID, { per_page: 20 }))).toHaveLength(23);
    expect(calls[1]!.url.pathname).toBe(`/cms/api/v1/bank/list/${CUSTOMER_ID}`);
  });

  it.each([
    [{ per_page: 9 }, "per_page"],
    [{ per_page: 101 }, "per_page"],
    [{ per_page: 20.5 }, "per_page"],
    [{ page: 0 }, "page"],
  ])("refuses %j before sending", async (query, field) => {
    const { client, calls } = testClient(pages);
    const error = await client.payins.listHistory(query).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeValidationError);
    expect(Object.keys((error as ExchangeValidationError).fieldErrors)).toEqual([field]);
    await expect(collect(client.payins.listHistory.all(query))).rejects.toBeInstanceOf(ExchangeValidationError);
    expect(calls).toHaveLength(0);
  });

  it("accepts the bounds 10 and 100 and page 1", async () => {
    const { client, calls } = testClient(pages);
    await client.payins.listHistory({ per_page: 10, page: 1 });
    await client.payins.listHistory({ per_page: 100 });
    expect(calls).toHaveLength(2);
  });

  it("stops when the iteration is left early", async () => {
    const { client, calls } = testClient(pages);
    for await (const payin of client.payins.listHistory.all({ per_page: 10 })) {
      if (payin.id === "payin-3") break;
    }
    expect(calls).toHaveLength(1);
  });
});
