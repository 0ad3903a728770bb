// createCustomer against a service that takes the document's other reading of a re-sent client_reference_id: the
// 400 "Client Reference ID already exists" (E1's error cases, L274, L635) instead of the existing customer (the
// sandbox's reading). A real HTTP server on 127.0.0.1 keeps customers, can cut the connection after storing one
// (a lost answer), and pages its list; the client must resolve a repeat's "already exists" through the list.
import { afterEach, describe, expect, it } from "vitest";
import { createExchangeClient, ExchangeApiError } from "../src/index.js";
import { failure } from "./support/fake-fetch.js";
import { okEnvelope, startServer, type TestServer } from "./support/http-server.js";

interface Customer {
  id: string;
  client_reference_id: string;
  full_name: string;
  status: string;
}

const CREATE = "/cms/api/v1/customer/create";
const LIST = "/cms/api/v1/customer/list";
const EXISTS = JSON.stringify({
  status: false,
  message: "Client Reference ID already exists",
  data: null,
  errors: { client_reference_id: ["Client Reference ID already exists"] },
});

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * The service: `filler` older customers, newest first in the list (oldest first with `oldestFirst`); `loseAnswers`
 * creates whose answer is cut after the customer is stored; `listed` false hides the new customers from the list (a
 * lookup that finds nothing).
 */
async function customerService(
  options: { filler?: number; loseAnswers?: number; listed?: boolean; oldestFirst?: boolean } = {},
) {
  const customers: Customer[] = Array.from({ length: options.filler ?? 0 }, (_, i) => ({
    id: `old-${i}`,
    client_reference_id: `old-ref-${i}`,
    full_name: "Older Customer",
    status: "VERIFIED",
  }));
  let lose = options.loseAnswers ?? 0;
  server = await startServer((request, response, raw) => {
    const url = new URL(request.url, "http://service");
    if (url.pathname === CREATE) {
      const body = JSON.parse(request.body) as { client_reference_id: string; full_name: string };
      if (customers.some((c) => c.client_reference_id === body.client_reference_id))
        return response.writeHead(400, { "content-type": "application/json" }).end(EXISTS);
      const customer = { id: `cust-${customers.length}`, ...body, status: "UNVERIFIED" };
      if (options.oldestFirst) customers.push(customer);
      else customers.unshift(customer);
      if (lose-- > 0) return raw.socket.destroy();
      return response.writeHead(200, { "content-type": "application/json" }).end(okEnvelope(customer));
    }
    const page = Number(url.searchParams.get("page") ?? 1);
    const perPage = Number(url.searchParams.get("per_page") ?? 20);
    const visible = options.listed === false ? customers.filter((c) => c.id.startsWith("old-")) : customers;
    const results = visible.slice((page - 1) * perPage, page * perPage);
    const next = page * perPage < visible.length ? `${LIST}?page=${page + 1}&per_page=${perPage}` : null;
    response.writeHead(200, { "content-type": "application/json" });
    response.end(okEnvelope({ count: visible.length, next, previous: null, results }));
  });
  const client = createExchangeClient({ baseUrl: server.url, apiKey: "key-1", apiSecret: "secret-1", retryBaseMs: 1 });
  const arrived = () => server!.arrived.map((r) => `${r.method} ${new URL(r.url, "http://service").pathname}`);
  return { client, customers, arrived };
}

const body = { client_reference_id: "cust-ref-1", full_name: "Asha Verma", alpha_3_country_code: "IND" };

describe("createCustomer meeting its own reference", () => {
  it("resolves to the customer the lost attempt created, found in the customer list", async () => {
    const { client, customers, arrived } = await customerService({ loseAnswers: 1 });
    const customer = await client.customers.create(body);
    expect(customer).toMatchObject({ id: "cust-0", client_reference_id: "cust-ref-1" });
    expect(customers.filter((c) => c.client_reference_id === "cust-ref-1")).toHaveLength(1);
    expect(arrived()).toEqual([`POST ${CREATE}`, `POST ${CREATE}`, `GET ${LIST}`]);
  });

  it("pages through the list for the reference", async () => {
    const { client, arrived } = await customerService({ loseAnswers: 1, filler: 150, oldestFirst: true });
    // Oldest first: the new customer is the 151st, on page 2 of 100.
    const customer = await client.customers.create(body);
    expect(customer.id).toBe("cust-150");
    expect(arrived().filter((r) => r === `GET ${LIST}`)).toHaveLength(2);
  });

  it("leaves the 400 as the error when the list does not hold the reference", async () => {
    const { client } = await customerService({ loseAnswers: 1, listed: false });
    const error = await failure(client.customers.create(body));
    expect(error).toBeInstanceOf(ExchangeApiError);
    expect(error.message).toBe("Client Reference ID already exists");
    expect(error.attempts).toBe(2);
  });

  it("is an error, with no lookup, when the reference already exists on the first attempt", async () => {
    const { client, arrived } = await customerService({ filler: 1 });
    const error = await failure(client.customers.create({ ...body, client_reference_id: "old-ref-0" }));
    expect(error).toBeInstanceOf(ExchangeApiError);
    expect(error.message).toBe("Client Reference ID already exists");
    expect(error.attempts).toBe(1);
    expect(arrived()).toEqual([`POST ${CREATE}`]);
  });
});
