// The real sandbox, started in this process, and a proxy in front of it that can lose answers: the parts the
// fault tests and the README examples run against.
//
// The sandbox is loaded from its public entry (src/index.ts, run by vitest) rather than declared as a
// devDependency: it already depends on this package for its own client tests, and a cycle in the workspace graph
// breaks turbo's task ordering. The specifier is computed so that this package's type-check does not compile the
// sandbox's sources; `Sandbox` below is the part of its public handle these tests use.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createExchangeClient, type ExchangeClient, type ExchangeClientOptions } from "../../src/index.js";

/** The members of @exchange-kit/sandbox's handle that the tests use. */
export interface Sandbox {
  readonly url: string;
  readonly organizations: readonly { readonly apiKey: string; readonly apiSecret: string }[];
  readonly clock: { now(): Date; advance(seconds: number): Date };
  deliveriesSettled(): Promise<void>;
  close(): Promise<void>;
}

type CreateSandbox = (options: Record<string, unknown>) => Promise<Sandbox>;
const SANDBOX_ENTRY = new URL("../../../sandbox/src/index.ts", import.meta.url).href;

/** A sandbox on a free port whose records move on right after each response (`options` are its own). */
export async function startSandbox(options: Record<string, unknown> = {}): Promise<Sandbox> {
  const { createSandbox } = (await import(SANDBOX_ENTRY)) as { createSandbox: CreateSandbox };
  return createSandbox({ port: 0, autoProgressMs: 0, ...options });
}

/** A client for the sandbox's first organization, at `baseUrl` (the sandbox itself unless given). */
export function sandboxClient(sandbox: Sandbox, options: ExchangeClientOptions = {}): ExchangeClient {
  const org = sandbox.organizations[0]!;
  return createExchangeClient({
    baseUrl: sandbox.url,
    apiKey: org.apiKey,
    apiSecret: org.apiSecret,
    retryBaseMs: 1,
    ...options,
  });
}

/** What the proxy does with one request: pass it on, or pass it on and drop the answer. */
export type ProxyAction = "forward" | "lose-answer";

export interface FaultProxy {
  readonly url: string;
  readonly port: number;
  /** The requests that reached the sandbox, as `METHOD /path`. */
  readonly forwarded: string[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * An HTTP proxy to `target` on 127.0.0.1 (port 0, or `port` when given). `decide` sees each request (as
 * `METHOD /path` and its index) and may make the proxy forward it, let the sandbox process it, and then cut the
 * connection instead of answering: the client's view of a lost answer.
 */
export async function startFaultProxy(
  target: string,
  decide: (request: string, index: number) => ProxyAction,
  port = 0,
): Promise<FaultProxy> {
  const forwarded: string[] = [];
  let index = 0;
  const server: Server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const line = `${request.method} ${new URL(request.url ?? "/", "http://proxy").pathname}`;
    const action = decide(line, index++);
    const body = await readBody(request);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === "string" && name !== "host" && name !== "connection") headers.set(name, value);
    }
    const upstream = await fetch(target + (request.url ?? "/"), {
      method: request.method ?? "GET",
      headers,
      ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
    });
    const text = await upstream.text();
    forwarded.push(line);
    if (action === "lose-answer") {
      request.socket.destroy();
      return;
    }
    const out: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (name !== "content-length" && name !== "transfer-encoding" && name !== "connection" && name !== "keep-alive")
        out[name] = value;
    });
    response.writeHead(upstream.status, out).end(text);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let counter = 0;
/** A value no earlier test has used. */
export const unique = (prefix: string): string => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

/** The KYC body the sandbox's configuration for India asks for (additional_info included). */
export function kycBody(customerId: string): Record<string, unknown> {
  return {
    customer_id: customerId,
    full_name: "Asha Verma",
    phone: "9876543210",
    full_address: "14 MG Road, Bengaluru",
    dob: "15-08-1992",
    registered_date: "01-03-2026",
    document_type: "PASSPORT",
    document_details: { document_number: unique("Z"), additional_data: {} },
    selfie_url: "https://files.example.com/selfie.jpg",
    tax_number: unique("PAN").slice(-10).toUpperCase(),
    document_front_image_url: "https://files.example.com/front.png",
    document_back_image_url: "https://files.example.com/back.png",
    additional_info: { occupation: "Engineer" },
  };
}

/** A customer of the sandbox whose KYC is VERIFIED. */
export async function verifiedCustomer(client: ExchangeClient): Promise<{ id: string }> {
  const customer = await client.customers.create({
    client_reference_id: unique("cust"),
    alpha_3_country_code: "IND",
    full_name: "Asha Verma",
  });
  await client.kyc.addData(kycBody(customer.id) as never);
  const verified = await client.customers.waitForKyc(customer.id, { intervalMs: 5, timeoutMs: 10_000 });
  if (verified.status !== "VERIFIED") throw new Error(`KYC ended ${verified.status}`);
  return { id: customer.id };
}
