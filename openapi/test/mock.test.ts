// Smoke test of `pnpm mock` (scripts/mock.mjs): Prism serving the real, split spec on a free loopback port.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleSpec, firstExample, killTree, repoRoot } from "./helpers.js";

const AUTH = { "X-API-KEY": "test-key", "X-TIMESTAMP": "1767225600", "X-SIGNATURE": "c2lnbmF0dXJl" };
const CUSTOMER_ID = "3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f";
const NEW_CUSTOMER = { client_reference_id: "cust-smoke-1", alpha_3_country_code: "IND", full_name: "Asha Verma" };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const spec = bundleSpec();
const paths: Record<string, any> = spec.paths ?? {};
let mock: ChildProcess | undefined;
let base = "";
let output = "";
// Whatever happens to the test run, the mock does not outlive it.
const guard = setTimeout(() => killTree(mock, "SIGKILL"), 55_000);
guard.unref();

beforeAll(async () => {
  const port = await freePort();
  mock = spawn(process.execPath, [join(repoRoot, "scripts", "mock.mjs"), "--port", String(port)], {
    cwd: repoRoot,
    detached: true, // its own process group: killTree stops the script and Prism together
    stdio: ["ignore", "pipe", "pipe"],
  });
  mock.stderr!.on("data", (chunk) => (output += chunk));
  base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mock not ready within 30 s:\n${output}`)), 30_000);
    mock!.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`mock exited with ${code} before it was ready:\n${output}`));
    });
    mock!.stdout!.on("data", (chunk) => {
      output += chunk;
      const ready = /Mock server ready at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (ready?.[1]) {
        clearTimeout(timer);
        resolve(ready[1]);
      }
    });
  });
  expect(base).toBe(`http://127.0.0.1:${port}`);
}, 40_000);

afterAll(async () => {
  if (!mock) return;
  const exited = new Promise((resolve) => {
    if (mock!.exitCode !== null || mock!.signalCode !== null) resolve(undefined);
    else mock!.once("exit", resolve);
  });
  killTree(mock, "SIGTERM");
  const timer = setTimeout(() => killTree(mock, "SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
  clearTimeout(guard);
});

async function call(
  method: string,
  path: string,
  { body, headers = {} }: { body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}

const createPath = "/cms/api/v1/customer/create";
const create = paths[createPath]?.post;

describe("pnpm mock (Prism on the split spec)", () => {
  it("createCustomer: a valid, signed request gets 200 and the example envelope", async () => {
    expect(create, "the spec has POST /cms/api/v1/customer/create").toBeDefined();
    const res = await call("POST", createPath, { body: NEW_CUSTOMER, headers: AUTH });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual(firstExample(create, "200"));
    expect(res.json).toMatchObject({ status: true, data: expect.any(Object) });
  });

  it("createCustomer: without a required field, Prism answers with a validation error", async () => {
    const { client_reference_id: _omitted, ...body } = NEW_CUSTOMER;
    const res = await call("POST", createPath, { body, headers: AUTH });
    expect([400, 422]).toContain(res.status);
    expect(res.headers.get("sl-violations") ?? "").toMatch(/client_reference_id/);
  });

  it("createCustomer: without the auth headers, 401", async () => {
    const res = await call("POST", createPath, { body: NEW_CUSTOMER });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ status: false });
    expect(String(res.json.err_code)).toMatch(/^AUTH_/);
  });

  it("createCustomer: with only one of the three auth headers, 401", async () => {
    const res = await call("POST", createPath, { body: NEW_CUSTOMER, headers: { "X-API-KEY": "test-key" } });
    expect(res.status).toBe(401);
  });

  it("createCustomer: `Prefer: code=400` returns the 400 example", async () => {
    const res = await call("POST", createPath, { body: NEW_CUSTOMER, headers: { ...AUTH, Prefer: "code=400" } });
    expect(res.status).toBe(400);
    expect(res.json).toEqual(firstExample(create, "400"));
  });

  const getPath = "/cms/api/v1/customer/{customer_id}";
  it.skipIf(!paths[getPath]?.get)("getCustomer: 200 with the example envelope", async () => {
    const res = await call("GET", `/cms/api/v1/customer/${CUSTOMER_ID}`, { headers: AUTH });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual(firstExample(paths[getPath].get, "200"));
  });

  const bankListPath = "/cms/api/v1/bank/list/{customer_id}";
  it.skipIf(!paths[bankListPath]?.get)(
    "listBankAccounts: 200 with page and per_page; 400 when out of bounds",
    async () => {
      const ok = await call("GET", `/cms/api/v1/bank/list/${CUSTOMER_ID}?page=1&per_page=20`, { headers: AUTH });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.json).toEqual(firstExample(paths[bankListPath].get, "200"));
      const bad = await call("GET", `/cms/api/v1/bank/list/${CUSTOMER_ID}?page=1&per_page=5`, { headers: AUTH });
      expect([400, 422]).toContain(bad.status);
      expect(bad.headers.get("sl-violations") ?? "").toMatch(/per_page/);
    },
  );
});
