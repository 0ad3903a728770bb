// Test helpers: a sandbox per test file, a signed-request client whose every answer is checked against the spec,
// a webhook receiver, and polling.
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createHmac } from "node:crypto";
import { afterEach } from "vitest";
import { createSandbox, type Sandbox, type SandboxOptions, type SandboxOrganization } from "../src/index.js";
import { dropEngineDatabase, engineDatabase } from "./support/engine.js";
import { assertEventMatchesSpec, assertResponseMatchesSpec } from "./spec-responses.js";

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()!();
});

export const ORG_A = { name: "Org A", apiKey: "key_org_a", apiSecret: "secret_org_a" };
export const ORG_B = { name: "Org B", apiKey: "key_org_b", apiSecret: "secret_org_b" };

/**
 * On PostgreSQL, the job queue of a test's sandbox: two workers (a test runs little at once, and each worker is
 * connections to open and close). The sandbox wakes its workers for its own jobs when they come due; a wake-up
 * that finds both busy is lost, so the poll is 200 ms here rather than a second.
 * No change feed: a test's sandbox is the only replica on its database (postgres-engine.test.ts tests the feed).
 */
const QUEUE_FOR_TESTS = { queue: { concurrency: 2, pollMs: 200 }, changeFeed: false };

/** A sandbox closed after the test. Defaults: two organizations, fast automatic progress and retries. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const cloned = options.db ? undefined : await engineDatabase();
  const db = options.db ?? cloned;
  const sandbox = await createSandbox(
    {
      ...(db ? { db } : {}),
      organizations: [ORG_A, ORG_B],
      autoProgressMs: 0,
      webhookTimeoutMs: 500,
      webhookRetry: { maxAttempts: 4, initialDelayMs: 20, factor: 2, maxDelayMs: 200 },
      ...options,
    },
    QUEUE_FOR_TESTS,
  );
  open.push(async () => {
    await sandbox.close();
    if (cloned) await dropEngineDatabase(cloned);
  });
  return sandbox;
}

export interface ApiResponse {
  status: number;
  body: Record<string, unknown> & {
    status: boolean;
    message: string;
    data: any;
    err_code?: string;
    errors?: any;
    error?: any;
  };
  headers: IncomingHttpHeaders;
  /** The spec schema the body was checked against. */
  checkedAgainst: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is (and signed as is unless `sign` is false). */
  rawBody?: string | Buffer;
  query?: Record<string, string | number>;
  headers?: Record<string, string>;
  /** Default true. */
  sign?: boolean;
  timestamp?: number;
}

/** Canonical body: keys sorted at every level, no whitespace, non-ASCII as lowercase \uXXXX (the document's rule). */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") {
    return JSON.stringify(value).replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
  }
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const entries = Object.keys(value as object)
    .sort()
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .map((k) => `${canonical(k)}:${canonical((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(",")}}`;
}

export function sign(org: { apiKey: string; apiSecret: string }, timestamp: number, body: string | Buffer): string {
  return createHmac("sha256", org.apiSecret).update(`${org.apiKey}|${timestamp}|`).update(body).digest("base64");
}

/** node:http rather than fetch, so tests can set any header (fetch forbids Host). */
function send(url: string, method: string, headers: Record<string, string>, body: string | Buffer | undefined) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** What a client needs of a sandbox: its URL (and its organizations, for the default one); a replica in another process has them too. */
export type ApiTarget = Pick<Sandbox, "url" | "organizations">;

export class Api<S extends ApiTarget = Sandbox> {
  constructor(
    readonly sandbox: S,
    readonly org: { apiKey: string; apiSecret: string } = sandbox.organizations[0]!,
  ) {}

  as(org: SandboxOrganization | { apiKey: string; apiSecret: string }): Api<S> {
    return new Api(this.sandbox, org);
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const raw = options.rawBody ?? (options.body === undefined ? undefined : canonical(options.body));
    const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {};
    if (raw !== undefined) headers["Content-Type"] = "application/json";
    if (options.sign !== false) {
      headers["X-API-KEY"] = this.org.apiKey;
      headers["X-TIMESTAMP"] = String(timestamp);
      headers["X-SIGNATURE"] = sign(this.org, timestamp, raw ?? "{}");
    }
    Object.assign(headers, options.headers);
    const query = options.query
      ? `?${new URLSearchParams(Object.entries(options.query).map(([k, v]) => [k, String(v)])).toString()}`
      : "";
    const {
      status,
      headers: resHeaders,
      text,
    } = await send(`${this.sandbox.url}${path}${query}`, method, headers, raw);
    let body: ApiResponse["body"];
    try {
      body = JSON.parse(text) as ApiResponse["body"];
    } catch {
      throw new Error(`${method} ${path} answered ${status} with a non-JSON body: ${text.slice(0, 200)}`);
    }
    const res = { status, headers: resHeaders };
    const checkedAgainst = assertResponseMatchesSpec(method, path, res.status, body);
    return { status: res.status, body, headers: res.headers, checkedAgainst };
  }

  get(path: string, options?: RequestOptions) {
    return this.request("GET", path, options);
  }
  post(path: string, body?: unknown, options?: RequestOptions) {
    return this.request("POST", path, { ...options, body });
  }
  patch(path: string, body?: unknown, options?: RequestOptions) {
    return this.request("PATCH", path, { ...options, body });
  }
  delete(path: string, options?: RequestOptions) {
    return this.request("DELETE", path, options);
  }

  /** Asserts a 200 and returns `data`. */
  async ok(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<any> {
    const res = await this.request(method, path, { ...options, body });
    if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.data;
  }
}

export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what = "condition",
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export interface Delivery {
  headers: IncomingHttpHeaders;
  raw: string;
  body: any;
  at: number;
}

/** A webhook receiver on 127.0.0.1 that records deliveries; `respond` picks the status (and may delay). */
/** A receiver's answer: a status, or a status with a body. */
type ReceiverReply = number | { status: number; body: string };

export async function startReceiver(
  respond: (delivery: Delivery, index: number) => ReceiverReply | Promise<ReceiverReply> = () => 200,
) {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const delivery: Delivery = { headers: req.headers, raw, body: JSON.parse(raw), at: Date.now() };
      assertEventMatchesSpec(delivery.body);
      const index = deliveries.push(delivery) - 1;
      const reply = await respond(delivery, index);
      const { status, body } = typeof reply === "number" ? { status: reply, body: undefined } : reply;
      if (!res.destroyed) res.writeHead(status).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  open.push(close);
  return { url, deliveries, close };
}

// ---- flows used by many tests ----

let counter = 0;
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;
let phoneCounter = 0;
export const uniquePhone = () =>
  `9${String(100000000 + (Date.now() % 10000000) * 10 + (phoneCounter++ % 10)).slice(-9)}`;

export function kycBody(customerId: string, overrides: Record<string, unknown> = {}) {
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
    ...overrides,
  };
}

export async function createCustomer(api: Api<ApiTarget>, overrides: Record<string, unknown> = {}): Promise<any> {
  return api.ok("POST", "/cms/api/v1/customer/create", {
    client_reference_id: unique("cust"),
    full_name: "Asha Verma",
    alpha_3_country_code: "IND",
    ...overrides,
  });
}

/** A customer whose KYC has completed (VERIFIED unless a magic value says otherwise). */
export async function verifiedCustomer(api: Api<ApiTarget>, overrides: Record<string, unknown> = {}): Promise<any> {
  const customer = await createCustomer(api, overrides);
  await api.ok("POST", "/cms/api/v1/kyc/add-kyc-data", kycBody(customer.id));
  return waitFor(async () => {
    const c = await api.ok("GET", `/cms/api/v1/customer/${customer.id}`);
    return c.status !== "UNVERIFIED" && c;
  }, "KYC outcome");
}

export async function verifiedBank(
  api: Api<ApiTarget>,
  customerId: string,
  identifiers: Record<string, string> = { account_number: String(Date.now()) + String(counter++), ifsc: "HDFC0001234" },
  type = "ACCOUNT_DETAILS",
): Promise<any> {
  const bank = await api.ok("POST", "/cms/api/v1/bank/create", {
    customer_id: customerId,
    bank_account_type: type,
    identifiers,
  });
  return waitFor(async () => {
    const b = await api.ok("GET", `/cms/api/v1/bank/${customerId}/${bank.id}`);
    return b.bank_account_status !== "PROCESSING" && b;
  }, "bank verification");
}

export function payoutQuotationBody(customerId: string, bankId: string, overrides: Record<string, unknown> = {}) {
  return {
    asset: "usdt",
    fiat: "INR",
    customer_id: customerId,
    bank_id: bankId,
    network: "tron",
    payment_method: "IMPS",
    receiving_amount: "10000",
    risk_parameters: { ip_address: "203.0.113.24" },
    ...overrides,
  };
}
