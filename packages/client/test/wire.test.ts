// The wire, checked by an independent implementation: a Python server verifies every request with
// json.dumps and hmac from its standard library.
import { spawnSync, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExchangeClient, type ExchangeClient } from "../src/index.js";
import { start, stop } from "./support/processes.js";
import { packageRoot } from "./support/spec.js";

const API_KEY = "wire-key-7f3a";
const API_SECRET = "wire-secret-\u00e9\u00e8-9c1d";
const CUSTOMER_ID = "3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f";
const BANK_ID = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
const python = spawnSync("python3", ["--version"]).status === 0;

let server: ChildProcess | undefined;
let client: ExchangeClient;
let baseUrl = "";

interface Echo {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  signed: string;
}

beforeAll(async () => {
  if (!python) return;
  // The server stops itself after 60 s whatever happens here.
  const started = await start(
    "python3",
    [join(packageRoot, "test", "wire_server.py"), API_KEY, API_SECRET, "60"],
    /listening (\d+)/,
  );
  server = started.child;
  baseUrl = `http://127.0.0.1:${started.match[1]}`;
  client = createExchangeClient({ baseUrl, apiKey: API_KEY, apiSecret: API_SECRET, maxRetries: 0 });
});

afterAll(async () => {
  await stop(server);
});

describe.skipIf(!python)("the wire, verified by Python's json and hmac", () => {
  it("accepts a POST whose body has non-ASCII text, signed over the canonical body sent", async () => {
    const body = {
      full_name: "Zoë Ångström 日本 😀",
      client_reference_id: "wire-1",
      alpha_3_country_code: "SWE",
      email: "zoe@example.com",
    };
    const echo = (await client.customers.create(body)) as unknown as Echo;
    expect(echo.method).toBe("POST");
    expect(echo.body).toEqual(body);
    expect(echo.signed).toContain("Zo\\u00eb \\u00c5ngstr\\u00f6m \\u65e5\\u672c \\ud83d\\ude00");
  });

  it("accepts a nested PATCH body with numbers, booleans and nulls", async () => {
    const body = {
      customer_id: CUSTOMER_ID,
      selfie_url: "https://example.com/s.png",
      meta: { b: [1, 2.5, -0.001, true, null], a: "ü" },
    };
    const echo = (await client.kyc.updateSelfie(body as never)) as unknown as Echo;
    expect(echo.method).toBe("PATCH");
    expect(echo.body).toEqual(body);
  });

  it("accepts a GET signed over {}", async () => {
    const echo = (await client.customers.get(CUSTOMER_ID)) as unknown as Echo;
    expect(echo).toMatchObject({
      method: "GET",
      path: `/cms/api/v1/customer/${CUSTOMER_ID}`,
      body: null,
      signed: "{}",
    });
  });

  it("accepts a DELETE signed over {}", async () => {
    const echo = (await client.banks.delete(CUSTOMER_ID, BANK_ID)) as unknown as Echo;
    expect(echo).toMatchObject({
      method: "DELETE",
      path: `/cms/api/v1/bank/${CUSTOMER_ID}/${BANK_ID}/delete`,
      signed: "{}",
    });
  });

  it("accepts a query that is not part of the signature", async () => {
    const page = (await client.payins.listHistory({
      page: 2,
      per_page: 10,
      extraQuery: { status: "SUCCESS" },
    })) as unknown as Echo;
    expect(page).toMatchObject({
      method: "GET",
      query: { page: "2", per_page: "10", status: "SUCCESS" },
      signed: "{}",
    });
  });

  it("accepts the raw client and the escape hatch", async () => {
    const raw = await client.raw.PATCH("/cms/api/v1/kyc/update-tax-info", {
      body: { customer_id: CUSTOMER_ID, tax_number: "ABCDE1234F" } as never,
    });
    expect(raw.response.status).toBe(200);
    const echo = await client.request<Echo>("POST", "/cms/api/v1/customer/wallet/create", {
      body: { customer_id: CUSTOMER_ID, wallet_address: "0xAbC", network: "Polygon", label: "主" },
    });
    expect(echo.signed).toBe(
      `{"customer_id":"${CUSTOMER_ID}","label":"\\u4e3b","network":"Polygon","wallet_address":"0xAbC"}`,
    );
  });

  it("is refused by the same server when the secret is wrong", async () => {
    const wrong = createExchangeClient({ baseUrl, apiKey: API_KEY, apiSecret: "not-the-secret", maxRetries: 0 });
    await expect(wrong.customers.get(CUSTOMER_ID)).rejects.toMatchObject({
      status: 401,
      errCode: "AUTH_INVALID_SIGNATURE",
      message: expect.stringMatching(/^X-SIGNATURE does not match \(401 AUTH_INVALID_SIGNATURE\): check apiSecret /),
    });
  });
});
