// The server as editors start it: the built `exchange-kit mcp` in a child process, the SDK's Client over stdio,
// against a real sandbox. The tool list under each flag, the annotations, the gates, and an ambiguous write.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatedTools } from "../src/generated/tools.js";
import { annotationsOf, toolKind } from "../src/safety.js";
import { cliConfig, connectStdio } from "./support/clients.js";
import { type Sandbox, serverEnv, startSandbox } from "./support/sandbox.js";

let sandbox: Sandbox;
const clients: Client[] = [];

async function connect(env: Record<string, string>, ...flags: string[]): Promise<Client> {
  const client = await connectStdio(cliConfig(env, ...flags));
  clients.push(client);
  return client;
}

const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);
const operations = (kinds: readonly string[]) =>
  generatedTools.filter((tool) => kinds.includes(toolKind(tool))).map((tool) => tool.name);
const SANDBOX_TOOLS = [
  "sandbox_transition",
  "sandbox_advance_clock",
  "sandbox_arm_fault",
  "sandbox_clear_faults",
  "sandbox_list_requests",
  "sandbox_list_events",
  "sandbox_redeliver_event",
];

beforeAll(async () => {
  sandbox = await startSandbox();
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await sandbox?.close();
});

describe("the tool list", () => {
  it("has all 42 operations, search_docs and the sandbox tools with both flags", async () => {
    const client = await connect(serverEnv(sandbox), "--allow-writes", "--allow-orders");
    expect(await names(client)).toEqual([...generatedTools.map((t) => t.name), "search_docs", ...SANDBOX_TOOLS]);
  });

  it("has only the reads and the quotations without a flag", async () => {
    const client = await connect(serverEnv(sandbox));
    expect(await names(client)).toEqual([...operations(["read", "quote"]), "search_docs", ...SANDBOX_TOOLS]);
  });

  it("adds the record writes with --allow-writes, and not the orders", async () => {
    const client = await connect(serverEnv(sandbox), "--allow-writes");
    expect(await names(client)).toEqual([...operations(["read", "quote", "write"]), "search_docs", ...SANDBOX_TOOLS]);
  });

  it("adds the orders with --allow-orders, and not the writes", async () => {
    const client = await connect(serverEnv(sandbox), "--allow-orders");
    expect(await names(client)).toEqual([...operations(["read", "quote", "order"]), "search_docs", ...SANDBOX_TOOLS]);
  });

  it("carries each operation's annotations, output schema and the spec's input schema (the sandbox's, on a sandbox)", async () => {
    const client = await connect(serverEnv(sandbox), "--allow-writes", "--allow-orders");
    const { tools } = await client.listTools();
    for (const generated of generatedTools) {
      const listed = tools.find((tool) => tool.name === generated.name)!;
      expect(listed.annotations).toEqual({ title: generated.title, ...annotationsOf(generated) });
      expect(listed.inputSchema).toEqual(generated.sandboxInputSchema ?? generated.inputSchema);
      expect(listed.outputSchema).toEqual(generated.outputSchema);
    }
  });
});

describe("without a sandbox", () => {
  let plain: Server;
  beforeAll(async () => {
    plain = createServer((_req, res) => res.writeHead(404, { "Content-Type": "text/plain" }).end("no such route"));
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise((resolve) => plain.close(resolve)));

  it("lists no sandbox tool, and calling one says it needs a sandbox", async () => {
    const env = {
      ...serverEnv(sandbox),
      EXCHANGE_BASE_URL: `http://127.0.0.1:${(plain.address() as AddressInfo).port}`,
    };
    const client = await connect(env);
    const listed = await names(client);
    expect(listed.filter((name) => name.startsWith("sandbox_"))).toEqual([]);
    expect(listed).toContain("getCustomer");
    const result = await client.callTool({ name: "sandbox_advance_clock", arguments: { seconds: 60 } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("works against a sandbox only");
  });
});

describe("the gates", () => {
  const requestsFor = async (client: Client, operation: string) => {
    const log = await client.callTool({ name: "sandbox_list_requests", arguments: { operation_id: operation } });
    return (log.structuredContent as { count: number }).count;
  };

  it("refuse a record write without --allow-writes, name the flag and send nothing", async () => {
    const client = await connect(serverEnv(sandbox), "--allow-orders");
    const result = await client.callTool({
      name: "createCustomer",
      arguments: { body: { client_reference_id: "gated-1", full_name: "Asha Verma", alpha_3_country_code: "IND" } },
    });
    expect(result.isError).toBe(true);
    expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(
      /^createCustomer is a record write and this server was started without --allow-writes: nothing was sent/,
    );
    expect(await requestsFor(client, "createCustomer")).toBe(0);
  });

  it("refuse an order without --allow-orders and name the flag", async () => {
    const client = await connect(serverEnv(sandbox), "--allow-writes");
    const result = await client.callTool({ name: "initiatePayin", arguments: { body: { quotation_id: "q" } } });
    expect(result.isError).toBe(true);
    expect((result.content as Array<{ text: string }>)[0]!.text).toContain(
      "initiatePayin is an order (it moves money) and this server was started without --allow-orders",
    );
    expect(await requestsFor(client, "initiatePayin")).toBe(0);
  });
});

describe("an ambiguous write", () => {
  it("is a tool error that says it may have happened and which read settles it, and is sent once", async () => {
    const client = await connect(serverEnv(sandbox), "--allow-writes");
    const customer = await client.callTool({
      name: "createCustomer",
      arguments: { body: { client_reference_id: "ambiguous-1", full_name: "Asha Verma", alpha_3_country_code: "IND" } },
    });
    const customerId = (customer.structuredContent as { id: string }).id;
    await client.callTool({
      name: "sandbox_transition",
      arguments: { record: "CUSTOMER", id: customerId, status: "VERIFIED" },
    });
    const armed = await client.callTool({
      name: "sandbox_arm_fault",
      arguments: { operation: "createBankAccount", fault: "DROP_AFTER_COMMIT" },
    });
    expect(armed.isError).toBeFalsy();
    const result = await client.callTool({
      name: "createBankAccount",
      arguments: {
        body: {
          customer_id: customerId,
          bank_account_type: "ACCOUNT_DETAILS",
          identifiers: { account_number: "50100123456789", ifsc: "HDFC0001234" },
        },
      },
    });
    expect(result.isError).toBe(true);
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    expect(text).toMatch(/^createBankAccount may have happened: .* It was not repeated/);
    expect(text).toContain("the customer's bank accounts (the tool listBankAccounts)");
    const log = await client.callTool({
      name: "sandbox_list_requests",
      arguments: { operation_id: "createBankAccount" },
    });
    expect((log.structuredContent as { count: number }).count).toBe(1);
    // The request ran and committed before its answer was lost: the read the error names shows the account.
    const banks = await client.callTool({ name: "listBankAccounts", arguments: { customer_id: customerId } });
    expect((banks.structuredContent as { count: number }).count).toBe(1);
  });
});
