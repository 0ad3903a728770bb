// A whole integration through tools only, over Streamable HTTP with the SDK's Client against a real sandbox:
// customer, KYC, bank account, webhook URL, payin quotation and initiate, the sandbox moving the order, the event
// listed with its delivery, the request log showing the calls. Then every result, error and resource of the
// journey is scanned for the secret and the signatures the server's client sent.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createExchangeClient } from "@exchange-kit/client";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveHttp } from "../src/index.js";
import { connectHttp } from "./support/clients.js";
import { credentials, type Sandbox, startSandbox } from "./support/sandbox.js";

let sandbox: Sandbox;
let receiver: Server;
let http: Awaited<ReturnType<typeof serveHttp>>;
let client: Client;
const signatures = new Set<string>();
/** Every text the server gave the client during the journey. */
const seen: string[] = [];

type Structured = Record<string, unknown>;

async function call(name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: Structured;
    content: Array<{ text: string }>;
  };
  seen.push(JSON.stringify(result));
  return result;
}

async function ok(name: string, args: Record<string, unknown> = {}): Promise<Structured> {
  const result = await call(name, args);
  if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}`);
  return result.structuredContent!;
}

beforeAll(async () => {
  sandbox = await startSandbox();
  receiver = createServer((req, res) => req.resume().on("end", () => res.writeHead(200).end("ok")));
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const exchange = createExchangeClient({
    baseUrl: sandbox.url,
    ...credentials,
    hooks: {
      onRequest: (event) => {
        signatures.add(event.headers["X-SIGNATURE"] ?? event.headers["x-signature"]!);
      },
    },
  });
  http = await serveHttp({ client: exchange, allowWrites: true, allowOrders: true });
  client = await connectHttp(http.url, http.token);
});

afterAll(async () => {
  await client?.close();
  await http?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await sandbox?.close();
});

describe("a journey through tools only", () => {
  const state: Record<string, string> = {};

  it("creates a customer and submits KYC, which the sandbox then verifies", async () => {
    const customer = await ok("createCustomer", {
      body: { client_reference_id: "journey-1", alpha_3_country_code: "IND", full_name: "Asha Verma" },
    });
    state.customer = customer.id as string;
    const config = await ok("getKycConfiguration", { customer_id: state.customer });
    const kyc = await ok("addKycData", {
      body: {
        customer_id: state.customer,
        full_name: "Asha Verma",
        phone: "9876543210",
        full_address: "12 MG Road, Bengaluru 560001",
        dob: "31-01-1990",
        registered_date: "01-02-2020",
        document_type: (config.supported_document_types as string[])[0],
        document_details: { document_number: "ABCDE1234F", additional_data: {} },
        document_front_image_url: "https://files.example.com/front.png",
        document_back_image_url: "https://files.example.com/back.png",
        selfie_url: "https://files.example.com/selfie.png",
        additional_info: { occupation: "Engineer", annual_income: "1200000", source_of_funds: "Salary" },
        tax_number: "ABCDE1234F",
      },
    });
    expect(kyc.status).toBe("PROCESSING");
    await ok("sandbox_transition", { record: "CUSTOMER", id: state.customer, status: "VERIFIED" });
    expect((await ok("getCustomer", { customer_id: state.customer })).status).toBe("VERIFIED");
  });

  it("adds a bank account and registers the webhook URL", async () => {
    const bank = await ok("createBankAccount", {
      body: {
        customer_id: state.customer,
        bank_account_type: "ACCOUNT_DETAILS",
        identifiers: { account_number: "50100123456789", ifsc: "HDFC0001234" },
      },
    });
    state.bank = bank.id as string;
    await ok("sandbox_transition", { record: "BANK", id: state.bank, status: "VERIFIED" });
    // On a sandbox the tools take the sandbox's spec, which allows http:// on loopback: the receiver needs no
    // certificate (the service's spec, and this server on the service, require https://).
    const port = (receiver.address() as AddressInfo).port;
    await ok("registerWebhook", { body: { webhook_url: `http://127.0.0.1:${port}/webhooks` } });
  });

  it("quotes and initiates a payin, and the result says what moved", async () => {
    const quotation = await ok("createPayinQuotation", {
      body: {
        customer_id: state.customer,
        bank_id: state.bank,
        asset: "usdt",
        fiat: "INR",
        network: "tron",
        payment_method: "IMPS",
        wallet_address: "TXYZ1234567890abcdefghijkLMNOPQRS",
        sending_amount: "25000.00",
        risk_parameters: { ip_address: "203.0.113.7" },
      },
    });
    const initiated = await call("initiatePayin", {
      body: {
        quotation_id: quotation.id,
        client_reference_id: "journey-payin-1",
        transaction_reference_id: "UTR000000000001",
      },
    });
    expect(initiated.isError).toBeFalsy();
    const text = initiated.content[0]!.text;
    expect(text).toMatch(/^moved: payin order \S+ created \(status \w+, client_reference_id journey-payin-1\)/);
    state.payin = /payin order (\S+)/.exec(text)![1]!;
  });

  it("moves the order in the sandbox and lists its event with the delivery", async () => {
    await ok("sandbox_transition", { record: "PAYIN", id: state.payin, status: "SUCCESS" });
    expect((await ok("getPayin", { payin_id: state.payin })).status).toBe("SUCCESS");
    const port = (receiver.address() as AddressInfo).port;
    let deliveries: Array<{ url: string; state: string; attempts: unknown[] }> = [];
    for (let tries = 0; tries < 100 && deliveries[0]?.state !== "delivered"; tries++) {
      const events = await ok("sandbox_list_events", { type: "PAYIN", id: state.payin, event: "SUCCESS" });
      deliveries = (events.results as Array<{ deliveries: typeof deliveries }>)[0]!.deliveries;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(deliveries[0]!.url).toBe(`http://127.0.0.1:${port}/webhooks`);
    expect(deliveries[0]!.state).toBe("delivered");
  });

  it("shows the journey's calls in the request log, without their bodies", async () => {
    const log = await ok("sandbox_list_requests", { order: "asc" });
    const operations = (log.results as Array<{ operation_id: string | null; request: { text: string } }>).map(
      (entry) => entry.operation_id,
    );
    for (const operation of [
      "createCustomer",
      "addKycData",
      "createBankAccount",
      "createPayinQuotation",
      "initiatePayin",
    ])
      expect(operations).toContain(operation);
    expect(JSON.stringify(log)).not.toContain("Asha Verma");
  });

  it("never shows the secret or a signature in a result, an error or a resource", async () => {
    await call("getCustomer", { customer_id: "00000000-0000-4000-8000-000000000000" }); // an error answer
    await call("createCustomer", { body: { full_name: "No reference" } }); // refused before sending
    const { resources } = await client.listResources();
    for (const resource of resources) seen.push(JSON.stringify(await client.readResource({ uri: resource.uri })));
    seen.push(JSON.stringify(await client.listTools()));
    expect(signatures.size).toBeGreaterThan(5);
    const all = seen.join("\n");
    expect(all).not.toContain(credentials.apiSecret);
    for (const signature of signatures) expect(all).not.toContain(signature);
  });
});
