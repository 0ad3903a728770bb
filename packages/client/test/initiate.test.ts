import { describe, expect, it } from "vitest";
import { ExchangeApiError, ExchangeTimeoutError } from "../src/index.js";
import { apiError, failure, hang, ok, testClient, type Recorded } from "./support/fake-fetch.js";

const QUOTATION_ID = "e1d2c3b4-a5f6-4e7d-8c9b-0a1f2e3d4c5b";

interface Order {
  id: string;
  client_reference_id: string;
  status: string;
}

/**
 * A service that keeps orders. `onInitiate` decides what each initiate does after (or instead of)
 * creating the order; the history is paged newest first, `perPage` at a time.
 */
function orderService(
  kind: "payin" | "payout",
  onInitiate: (request: Recorded, attempt: number, create: () => Order) => Response | Promise<Response>,
  options: { filler?: number; visibleAfter?: number } = {},
) {
  const orders: Order[] = Array.from({ length: options.filler ?? 0 }, (_, i) => ({
    id: `old-${i}`,
    client_reference_id: `old-ref-${i}`,
    status: "SUCCESS",
  }));
  let initiates = 0;
  let historyCalls = 0;
  const historyPath = kind === "payin" ? "/pis/api/v1/payin/history" : "/pos/api/v1/payout/history";
  const initiatePath = kind === "payin" ? "/pis/api/v1/payin/initiate" : "/pos/api/v1/payout/initiate";
  const handler = (request: Recorded): Response | Promise<Response> => {
    if (request.url.pathname === initiatePath) {
      initiates++;
      const body = JSON.parse(request.body!) as { client_reference_id?: string };
      const create = (): Order => {
        if (orders.some((o) => o.client_reference_id === body.client_reference_id && body.client_reference_id)) {
          throw apiError(400, `${kind.toUpperCase()}_DUPLICATE_CLIENT_REF_ID`, { client_reference_id: ["exists"] });
        }
        const order = {
          id: `order-${orders.length}`,
          client_reference_id: body.client_reference_id ?? "",
          status: "PROCESSING",
        };
        orders.unshift(order);
        return order;
      };
      try {
        return onInitiate(request, initiates, create);
      } catch (response) {
        return response as Response;
      }
    }
    if (request.url.pathname === historyPath) {
      historyCalls++;
      const page = Number(request.url.searchParams.get("page") ?? 1);
      const perPage = Number(request.url.searchParams.get("per_page") ?? 20);
      const visible =
        historyCalls > (options.visibleAfter ?? 0) ? orders : orders.filter((o) => o.id.startsWith("old-"));
      const results = visible.slice((page - 1) * perPage, page * perPage);
      const next =
        page * perPage < visible.length
          ? `https://exchange.test${historyPath}?page=${page + 1}&per_page=${perPage}`
          : null;
      return ok({ count: visible.length, next, previous: null, results });
    }
    return apiError(404, "NOT_FOUND");
  };
  return {
    handler,
    orders,
    get initiates() {
      return initiates;
    },
    get historyCalls() {
      return historyCalls;
    },
    historyPath,
  };
}

function initiate(
  client: ReturnType<typeof testClient>["client"],
  kind: "payin" | "payout",
  body: Record<string, unknown>,
) {
  return kind === "payin" ? client.payins.initiate(body) : client.payouts.initiate(body);
}

describe.each(["payin", "payout"] as const)("%s initiate never creates the order twice", (kind) => {
  const body = { quotation_id: QUOTATION_ID, client_reference_id: `${kind}-ref-1` };

  it("returns the order the first attempt created when that attempt timed out", async () => {
    const service = orderService(kind, (request, attempt, create) => {
      create();
      return attempt === 1 ? hang(request) : ok({ created: true });
    });
    const { client } = testClient(service.handler, { timeoutMs: 50 });
    const result = await initiate(client, kind, body);
    expect(result).toMatchObject({ client_reference_id: body.client_reference_id, status: "PROCESSING" });
    expect(service.initiates).toBe(1);
    expect(service.orders).toHaveLength(1);
  });

  it("returns the order when the service created it and then answered NET_TIMEOUT", async () => {
    const service = orderService(kind, (_, __, create) => {
      create();
      return apiError(400, "NET_TIMEOUT", {}, "request timed out");
    });
    const { client } = testClient(service.handler);
    await expect(initiate(client, kind, body)).resolves.toMatchObject({
      client_reference_id: body.client_reference_id,
    });
    expect(service.initiates).toBe(1);
    expect(service.orders).toHaveLength(1);
  });

  it("retries after checking the history when the failed attempt created nothing", async () => {
    const service = orderService(kind, (_, attempt, create) => {
      if (attempt === 1) return apiError(503, "SYS_SERVICE_UNAVAILABLE");
      return ok(create());
    });
    const { client } = testClient(service.handler);
    const order = { id: "order-0", client_reference_id: body.client_reference_id, status: "PROCESSING" };
    await expect(initiate(client, kind, body)).resolves.toEqual({ ...order, raw: order });
    expect(service.initiates).toBe(2);
    expect(service.historyCalls).toBe(1);
    expect(service.orders).toHaveLength(1);
  });

  it("scans the history page after page for the reference", async () => {
    const service = orderService(
      kind,
      (request, attempt, create) => {
        // The order lands behind 250 older ones: three pages of 100.
        const order = create();
        service.orders.splice(service.orders.indexOf(order), 1);
        service.orders.push(order);
        return attempt === 1 ? hang(request) : ok({});
      },
      { filler: 250 },
    );
    const { client, calls } = testClient(service.handler, { timeoutMs: 50 });
    await expect(initiate(client, kind, body)).resolves.toMatchObject({
      client_reference_id: body.client_reference_id,
    });
    const pages = calls.filter((c) => c.url.pathname === service.historyPath).map((c) => c.url.search);
    expect(pages).toEqual(["?page=1&per_page=100", "?page=2&per_page=100", "?page=3&per_page=100"]);
    expect(service.initiates).toBe(1);
  });

  it("bounds the history scan to historyLookupPages", async () => {
    const service = orderService(kind, () => apiError(500, "SYS_INTERNAL_ERROR"), { filler: 1000 });
    const { client, calls } = testClient(service.handler, { historyLookupPages: 2, maxRetries: 1 });
    await failure(initiate(client, kind, body));
    const pages = calls
      .filter((c) => c.url.pathname === service.historyPath)
      .map((c) => c.url.searchParams.get("page"));
    expect(pages).toEqual(["1", "2"]);
  });

  it("takes a duplicate-reference answer after an ambiguous failure as the first attempt having landed", async () => {
    const service = orderService(
      kind,
      (request, attempt, create) => {
        create(); // the second attempt throws the duplicate-reference error
        return attempt === 1 ? hang(request) : ok({});
      },
      { visibleAfter: 1 }, // the first history look-up does not see the new order yet
    );
    const { client } = testClient(service.handler, { timeoutMs: 50 });
    await expect(initiate(client, kind, body)).resolves.toMatchObject({
      client_reference_id: body.client_reference_id,
    });
    expect(service.initiates).toBe(2);
    expect(service.orders).toHaveLength(1);
  });

  it("does not retry after an ambiguous failure without a client_reference_id, and says why", async () => {
    const service = orderService(kind, () => apiError(503, "SYS_SERVICE_UNAVAILABLE"));
    const { client } = testClient(service.handler);
    const error = await failure(initiate(client, kind, { quotation_id: QUOTATION_ID }));
    expect(error).toBeInstanceOf(ExchangeApiError);
    expect(error.notRetriedReason).toMatch(/client_reference_id/);
    expect(error.message).toMatch(/not retried: .*client_reference_id/);
    expect(service.initiates).toBe(1);
    expect(service.historyCalls).toBe(0);
  });

  it("does not retry a timed-out initiate without a client_reference_id", async () => {
    const service = orderService(kind, (request) => hang(request));
    const { client } = testClient(service.handler, { timeoutMs: 30 });
    const error = await failure(initiate(client, kind, { quotation_id: QUOTATION_ID }));
    expect(error).toBeInstanceOf(ExchangeTimeoutError);
    expect(error.notRetriedReason).toMatch(/client_reference_id/);
    expect(service.initiates).toBe(1);
  });

  it("does not retry or look up after a fix error", async () => {
    const service = orderService(kind, () =>
      apiError(400, `${kind.toUpperCase()}_QUOTATION_EXPIRED`, { quotation_id: ["expired"] }),
    );
    const { client } = testClient(service.handler);
    const error = await failure(initiate(client, kind, body));
    expect(error.errCode).toBe(`${kind.toUpperCase()}_QUOTATION_EXPIRED`);
    expect(service.initiates).toBe(1);
    expect(service.historyCalls).toBe(0);
  });

  it("gives up after maxRetries when the order never appears", async () => {
    const service = orderService(kind, () => apiError(503, "SYS_SERVICE_UNAVAILABLE"));
    const { client } = testClient(service.handler, { maxRetries: 2 });
    const error = await failure(initiate(client, kind, body));
    expect(error.status).toBe(503);
    expect(error.attempts).toBe(3);
    expect(service.initiates).toBe(3);
    expect(service.historyCalls).toBe(2);
  });
});
