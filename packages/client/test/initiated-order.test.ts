// payins.initiate and payouts.initiate resolve to the order's id, status and client_reference_id, against a real
// HTTP server on 127.0.0.1 whose initiate answer carries the order, or not.
import { afterEach, describe, expect, it } from "vitest";
import { createExchangeClient, ExchangeOrderNotFoundError } from "../src/index.js";
import { orderInAnswer } from "../src/initiated-order.js";
import { type Arrived, okEnvelope, startServer, type TestServer } from "./support/http-server.js";

const QUOTATION_ID = "e1d2c3b4-a5f6-4e7d-8c9b-0a1f2e3d4c5b";
const ORDER_ID = "5d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * A service whose initiate answers `answer` and whose history (of the path's kind) pages `orders`, 100 at a time,
 * newest first.
 */
async function service(answer: unknown, orders: Record<string, unknown>[] = []) {
  server = await startServer((request: Arrived, response) => {
    const url = new URL(request.url, "http://x");
    if (url.pathname.endsWith("/initiate")) return response.writeHead(200).end(okEnvelope(answer));
    if (url.pathname.endsWith("/history")) {
      const page = Number(url.searchParams.get("page"));
      const results = orders.slice((page - 1) * 100, page * 100);
      const next = page * 100 < orders.length ? `${url.pathname}?page=${page + 1}&per_page=100` : null;
      return response.writeHead(200).end(okEnvelope({ count: orders.length, next, previous: null, results }));
    }
    response.writeHead(404).end();
  });
  const client = createExchangeClient({
    baseUrl: server.url,
    apiKey: "key",
    apiSecret: "secret",
    historyLookupPages: 2,
  });
  const paths = () => server!.arrived.map((r) => new URL(r.url, "http://x").pathname);
  return { client, paths };
}

const filler = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `old-${i}`, client_reference_id: `old-${i}`, status: "SUCCESS" }));

describe("orderInAnswer", () => {
  it.each([
    [
      "an answer with id and status",
      { id: "o", status: "SUCCESS" },
      "r",
      { id: "o", status: "SUCCESS", client_reference_id: "r" },
    ],
    [
      "its own reference",
      { id: "o", status: "FAILED", client_reference_id: "own" },
      "r",
      { id: "o", status: "FAILED", client_reference_id: "own" },
    ],
    [
      "a null reference kept",
      { id: "o", status: "IN_REVIEW", client_reference_id: null },
      "r",
      { id: "o", status: "IN_REVIEW", client_reference_id: null },
    ],
    [
      "no reference anywhere",
      { id: "o", status: "PROCESSING" },
      undefined,
      { id: "o", status: "PROCESSING", client_reference_id: null },
    ],
    ["an empty object", {}, "r", undefined],
    ["an id without status", { id: "o" }, "r", undefined],
    ["an empty id", { id: "", status: "SUCCESS" }, "r", undefined],
    ["a numeric id", { id: 7, status: "SUCCESS" }, "r", undefined],
    ["an array", [{ id: "o", status: "SUCCESS" }], "r", undefined],
    ["null", null, "r", undefined],
  ])("reads %s", (_, data, reference, expected) => {
    expect(orderInAnswer(data, reference)).toEqual(expected);
  });
});

describe("initiate resolves to the order", () => {
  it("takes id, status and client_reference_id from an answer that carries them, and keeps the answer as raw", async () => {
    const answer = { id: ORDER_ID, status: "PROCESSING", client_reference_id: "payin-1", rate: "88.50" };
    const { client, paths } = await service(answer);
    const order = await client.payins.initiate({
      quotation_id: QUOTATION_ID,
      client_reference_id: "payin-1",
      transaction_reference_id: "412345678901",
    });
    expect(order).toEqual({ id: ORDER_ID, status: "PROCESSING", client_reference_id: "payin-1", raw: answer });
    expect(paths()).toEqual(["/pis/api/v1/payin/initiate"]);
  });

  it("fills client_reference_id from the body when the answer carries id and status only", async () => {
    const { client } = await service({ id: ORDER_ID, status: "PROCESSING" });
    const order = await client.payouts.initiate({ quotation_id: QUOTATION_ID, client_reference_id: "payout-1" });
    expect(order.client_reference_id).toBe("payout-1");
  });

  it("finds the order in the history by client_reference_id when the answer does not carry it", async () => {
    const created = { id: ORDER_ID, status: "PROCESSING", client_reference_id: "payout-1", fiat: "INR" };
    const { client, paths } = await service({}, [...filler(100), created]);
    const { data, response } = await client.payouts.initiate.withResponse({
      quotation_id: QUOTATION_ID,
      client_reference_id: "payout-1",
    });
    expect(data).toEqual({ id: ORDER_ID, status: "PROCESSING", client_reference_id: "payout-1", raw: {} });
    expect(response.status).toBe(200);
    expect(paths()).toEqual([
      "/pos/api/v1/payout/initiate",
      "/pos/api/v1/payout/history",
      "/pos/api/v1/payout/history",
    ]);
  });

  it("fails with ExchangeOrderNotFoundError, without sending initiate again, when the history does not show the order", async () => {
    const { client, paths } = await service({ accepted: true }, filler(300));
    const error = await client.payouts
      .initiate({ quotation_id: QUOTATION_ID, client_reference_id: "payout-1" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeOrderNotFoundError);
    expect((error as ExchangeOrderNotFoundError).answer).toEqual({ accepted: true });
    expect((error as Error).message).toBe(
      "initiatePayout: the order was created, but the answer does not identify it (no id and status) and the first 2 " +
        "page(s) of 100 of the history hold no order with the body's client_reference_id; do not send it again: find " +
        "it in the history later",
    );
    expect(paths().filter((p) => p.endsWith("/initiate"))).toHaveLength(1);
    expect(paths().filter((p) => p.endsWith("/history"))).toHaveLength(2);
  });

  it("fails with ExchangeOrderNotFoundError saying why when no client_reference_id was sent", async () => {
    const { client, paths } = await service({});
    const error = await client.payouts.initiate({ quotation_id: QUOTATION_ID }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeOrderNotFoundError);
    expect((error as Error).message).toMatch(
      /no client_reference_id was sent, so the history cannot be searched for it; do not send it again/,
    );
    expect(paths()).toEqual(["/pos/api/v1/payout/initiate"]);
  });
});
