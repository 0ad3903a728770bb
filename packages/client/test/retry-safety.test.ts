// Retry safety per operation, under real faults: the sandbox behind a proxy that processes a request and then
// loses its answer, or a port where nothing listens yet. An unsafe operation is repeated only when the request
// provably did not reach the service.
import { afterEach, describe, expect, it } from "vitest";
import { ExchangeAmbiguousResultError, ExchangeApiError, isExchangeApiError } from "../src/index.js";
import { isAmbiguous } from "../src/retry-safety.js";
import { apiError, CUSTOMER_ID, failure, ok, testClient } from "./support/fake-fetch.js";
import { freePort } from "./support/processes.js";
import {
  sandboxClient,
  startFaultProxy,
  startSandbox,
  verifiedCustomer,
  type FaultProxy,
  type Sandbox,
} from "./support/sandbox.js";

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of running.splice(0).reverse()) await item.close();
});

/** The sandbox, a client straight to it (for setup and checks), and a verified customer. */
async function world() {
  const sandbox: Sandbox = await startSandbox();
  running.push(sandbox);
  const direct = sandboxClient(sandbox);
  const customer = await verifiedCustomer(direct);
  return { sandbox, direct, customer };
}

/** A proxy to the sandbox that loses the answer to the first request for `path`. */
async function losingFirstAnswer(sandbox: Sandbox, path: string): Promise<FaultProxy> {
  let lost = false;
  const proxy = await startFaultProxy(sandbox.url, (request) => {
    if (lost || !request.endsWith(path)) return "forward";
    lost = true;
    return "lose-answer";
  });
  running.push(proxy);
  return proxy;
}

const eddRecords = async (client: ReturnType<typeof sandboxClient>, customerId: string) =>
  (await client.payins.listEdd({ extraQuery: { customer_id: customerId } })).results;

describe("an unsafe operation after a lost answer", () => {
  it("makes exactly one EDD record when the answer to saveEdd is lost", async () => {
    const { sandbox, direct, customer } = await world();
    const proxy = await losingFirstAnswer(sandbox, "/payin/edd/save");
    const client = sandboxClient(sandbox, { baseUrl: proxy.url });
    // Whatever the call reports, the service must hold one record.
    await client.payins
      .saveEdd({ customer_id: customer.id, note: "source of funds: salary" } as never)
      .catch(() => undefined);
    expect(await eddRecords(direct, customer.id)).toHaveLength(1);
  });

  it("throws ExchangeAmbiguousResultError naming what to check, with the network error as its cause", async () => {
    const { sandbox, customer } = await world();
    const proxy = await losingFirstAnswer(sandbox, "/payin/edd/save");
    const client = sandboxClient(sandbox, { baseUrl: proxy.url });
    const error = await failure(client.payins.saveEdd({ customer_id: customer.id, note: "salary" } as never));
    expect(error).toBeInstanceOf(ExchangeAmbiguousResultError);
    expect(error.operation.operationId).toBe("savePayinEdd");
    expect(error.check).toMatch(/payins\.listEdd/);
    expect(error.message).toMatch(/may have been processed.*payins\.listEdd/);
    expect(error.cause.name).toBe("ExchangeNetworkError");
    expect(error.attempts).toBe(1);
    expect(proxy.forwarded.filter((r) => r.endsWith("/edd/save"))).toHaveLength(1);
  });

  it("does not burn a KYC update when the answer to updateSelfie is lost", async () => {
    const { sandbox, direct, customer } = await world();
    const proxy = await losingFirstAnswer(sandbox, "/kyc/update-selfie-info");
    const client = sandboxClient(sandbox, { baseUrl: proxy.url });
    const selfie = { customer_id: customer.id, selfie_url: "https://files.example.com/selfie-2.jpg" };
    await client.kyc.updateSelfie(selfie as never).catch(() => undefined);
    // The lost update counted once: two of the three remain, and the fourth is refused.
    await direct.kyc.updateSelfie(selfie as never);
    await direct.kyc.updateSelfie(selfie as never);
    const refused = await failure(direct.kyc.updateSelfie(selfie as never));
    expect(isExchangeApiError(refused, "KYC_UPDATE_LIMIT_EXCEEDED")).toBe(true);
  });

  it("repeats an unsafe call whose connection was refused, and makes one record", async () => {
    const { sandbox, direct, customer } = await world();
    const port = await freePort();
    // Nothing listens on the port for the first attempt; the proxy starts before the second.
    const client = sandboxClient(sandbox, {
      baseUrl: `http://127.0.0.1:${port}`,
      hooks: {
        onRetry: async () => {
          if (running.length === 1) running.push(await startFaultProxy(sandbox.url, () => "forward", port));
        },
      },
    });
    await client.payins.saveEdd({ customer_id: customer.id, note: "salary" } as never);
    expect(await eddRecords(direct, customer.id)).toHaveLength(1);
  });

  it("repeats a safe read after a lost answer and returns the later answer", async () => {
    const { sandbox, customer } = await world();
    const proxy = await losingFirstAnswer(sandbox, customer.id);
    const client = sandboxClient(sandbox, { baseUrl: proxy.url });
    expect((await client.customers.get(customer.id)).id).toBe(customer.id);
    expect(proxy.forwarded.filter((r) => r.endsWith(customer.id))).toHaveLength(2);
  });
});

describe("which answers prove an unsafe request was not processed", () => {
  const body = { customer_id: CUSTOMER_ID, note: "salary" } as never;

  it.each([
    [429, "TOO_MANY_REQUESTS"],
    [503, "SYS_SERVICE_UNAVAILABLE"],
  ])("repeats an unsafe call answered HTTP %i %s", async (status, code) => {
    const { client, calls } = testClient((_, i) => (i === 0 ? apiError(status, code) : ok({ id: "edd-1" })));
    await expect(client.payouts.saveEdd(body)).resolves.toEqual({ id: "edd-1" });
    expect(calls).toHaveLength(2);
  });

  it.each([
    [500, "SYS_INTERNAL_ERROR"],
    [400, "NET_TIMEOUT"],
    [400, "UNKNOWN_ERROR"],
  ])("does not repeat an unsafe call answered HTTP %i %s, which may have been processed", async (status, code) => {
    const { client, calls } = testClient(() => apiError(status, code));
    const error = await failure(client.payouts.saveEdd(body));
    expect(error).toBeInstanceOf(ExchangeAmbiguousResultError);
    expect(error.cause).toBeInstanceOf(ExchangeApiError);
    expect(error.check).toMatch(/payouts\.listEdd/);
    expect(calls).toHaveLength(1);
  });

  it("does not repeat an unsafe call whose attempt timed out", async () => {
    const { client, calls } = testClient(
      (request) =>
        new Promise((_, reject) => request.signal?.addEventListener("abort", () => reject(new Error("aborted")))),
      { timeoutMs: 20 },
    );
    const error = await failure(
      client.kyc.updateSelfie({ customer_id: CUSTOMER_ID, selfie_url: "https://x.example/s.jpg" } as never),
    );
    expect(error).toBeInstanceOf(ExchangeAmbiguousResultError);
    expect(error.cause.name).toBe("ExchangeTimeoutError");
    expect(calls).toHaveLength(1);
  });

  it("does not repeat an unsafe call whose connection was reset", async () => {
    const reset = Object.assign(new TypeError("fetch failed"), {
      cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
    });
    const { client, calls } = testClient(() => Promise.reject(reset));
    expect(await failure(client.banks.create({ customer_id: CUSTOMER_ID } as never))).toBeInstanceOf(
      ExchangeAmbiguousResultError,
    );
    expect(calls).toHaveLength(1);
  });

  it.each(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"])(
    "repeats an unsafe call that failed with %s before sending",
    async (code) => {
      const refused = Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error(code), { code }) });
      const { client, calls } = testClient((_, i) => (i === 0 ? Promise.reject(refused) : ok({ id: "bank-1" })));
      await expect(client.banks.create({ customer_id: CUSTOMER_ID } as never)).resolves.toEqual({ id: "bank-1" });
      expect(calls).toHaveLength(2);
    },
  );

  it("treats a POST through client.request to an unsafe operation's path as unsafe", async () => {
    const { client, calls } = testClient(() => apiError(500, "SYS_INTERNAL_ERROR"));
    const error = await failure(
      client.request("POST", "/pis/api/v1/payin/edd/save", { body: { customer_id: CUSTOMER_ID } }),
    );
    expect(error).toBeInstanceOf(ExchangeAmbiguousResultError);
    expect(calls).toHaveLength(1);
  });

  it("treats a POST through client.request to a path the spec does not know as unsafe", async () => {
    const { client, calls } = testClient(() => apiError(500, "SYS_INTERNAL_ERROR"));
    expect(await failure(client.request("POST", "/cms/api/v1/customer/wallet/create", { body: {} }))).toBeInstanceOf(
      ExchangeAmbiguousResultError,
    );
    expect(calls).toHaveLength(1);
  });
});

describe("isAmbiguous", () => {
  const outcome = (retryable: boolean, notProcessed: boolean, unread: boolean) => ({ retryable, notProcessed, unread });
  it.each([
    ["safe", outcome(true, false, false), false],
    ["safe", outcome(false, false, true), false],
    ["unsafe", outcome(true, false, false), true],
    ["unsafe", outcome(true, true, false), false],
    ["unsafe", outcome(false, false, false), false],
    ["unsafe", outcome(false, false, true), true],
    ["unsafe", outcome(false, true, true), false],
    ["guarded", outcome(true, false, false), false],
    ["guarded", outcome(false, false, true), true],
    ["guarded", outcome(false, true, true), false],
  ] as const)("a %s operation after %o: %s", (idempotency, failed, expected) => {
    expect(isAmbiguous(idempotency, failed)).toBe(expected);
  });
});
