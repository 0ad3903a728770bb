// Contract tests: every operation against the Prism mock served from the spec (scripts/mock.mjs).
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { paths } from "@exchange-kit/types";
import { normalizeFieldErrors } from "../src/errors.js";
import {
  createExchangeClient,
  ExchangeAmbiguousResultError,
  ExchangeApiError,
  listOperations,
  type ExchangeClient,
} from "../src/index.js";
import { exampleCall } from "./support/examples.js";
import { freePort, start, stop } from "./support/processes.js";
import { firstExampleOf, repoRoot, specOperations } from "./support/spec.js";
import { failure } from "./support/fake-fetch.js";

const CUSTOMER_ID = "3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f";
let mock: ChildProcess | undefined;
let baseUrl = "";
let client: ExchangeClient;
const operations = specOperations();
const byId = new Map(listOperations().map((op) => [op.operationId, op]));

type Method = (...args: unknown[]) => Promise<unknown>;
function methodOf(operationId: string): Method {
  const { group, name } = byId.get(operationId)!;
  return (client as unknown as Record<string, Record<string, Method>>)[group]![name]!;
}

/** The example call with extra per-call options merged into its last argument. */
function argsWith(operationId: string, options: Record<string, unknown>): unknown[] {
  const op = operations.find((o) => o.operationId === operationId)!;
  const args = exampleCall(op).args;
  args[args.length - 1] = { ...(args[args.length - 1] as object), ...options };
  return args;
}

beforeAll(async () => {
  const port = await freePort();
  const started = await start(
    process.execPath,
    [join(repoRoot, "scripts", "mock.mjs"), "--port", String(port)],
    /Mock server ready at (http:\/\/127\.0\.0\.1:\d+)/,
    {
      cwd: repoRoot,
      timeoutMs: 45_000,
    },
  );
  mock = started.child;
  baseUrl = started.match[1]!;
  client = createExchangeClient({
    baseUrl,
    apiKey: "contract-key",
    apiSecret: "contract-secret",
    retryBaseMs: 1,
    timeoutMs: 10_000,
  });
}, 60_000);

afterAll(async () => {
  await stop(mock);
});

describe("contract with the Prism mock of the spec", () => {
  it.each(operations.map((op) => [op.operationId, op] as const))(
    "%s succeeds with a valid request",
    async (operationId, op) => {
      const example = exampleCall(op);
      const data = await methodOf(operationId)(...example.args);
      const expected = (firstExampleOf(op.operation.responses["200"].content["application/json"]) as { data: any })
        .data;
      // List operations resolve to a page whatever their data's form: the USA bank list's { accounts } and the EDD
      // lists' bare arrays become pages.
      const records = Array.isArray(expected)
        ? expected
        : Array.isArray(expected?.accounts)
          ? expected.accounts
          : undefined;
      if (op.operation["x-idempotency"] === "guarded") {
        // initiate's example answer is `{}`: the order comes from the history example, found by the reference.
        expect(data).toMatchObject({ id: expect.any(String), status: expect.any(String), raw: expected });
        return;
      }
      expect(data).toEqual(
        records !== undefined ? { count: records.length, next: null, previous: null, results: records } : expected,
      );
    },
  );

  it("has Prism reject a body that misses a required field", async () => {
    const error = await failure(client.customers.create({ alpha_3_country_code: "IND", full_name: "A" } as never));
    expect(error).toBeInstanceOf(ExchangeApiError);
    expect(error.status).toBe(400);
    expect(error.headers.get("sl-violations")).toMatch(/client_reference_id/);
  });

  it("has Prism reject a path parameter that is not a UUID", async () => {
    const error = await failure(client.customers.get("not-a-uuid"));
    expect(error.status).toBe(400);
    expect(error.headers.get("sl-violations")).toMatch(/customer_id|format/);
  });

  it("has Prism reject per_page out of bounds sent through the raw client", async () => {
    const { error, response } = await client.raw.GET("/pis/api/v1/payin/history", {
      params: { query: { per_page: 5 } },
    });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ status: false });
    expect(response.headers.get("sl-violations")).toMatch(/per_page/);
  });

  it("has Prism refuse a request without the authentication headers", async () => {
    const unsigned = createClient<paths>({ baseUrl });
    const { response } = await unsigned.GET("/cms/api/v1/customer/{customer_id}", {
      params: { path: { customer_id: CUSTOMER_ID } },
    });
    expect(response.status).toBe(401);
  });

  const withErrorExample = operations.filter((op) => op.operation.responses["400"]?.content?.["application/json"]);
  it.each(withErrorExample.map((op) => [op.operationId, op] as const))(
    "%s turns the 400 example into the matching ExchangeApiError",
    async (operationId, op) => {
      const example = firstExampleOf(op.operation.responses["400"].content["application/json"]) as Record<string, any>;
      const thrown = await failure(
        methodOf(operationId)(...argsWith(operationId, { headers: { Prefer: "code=400" } })),
      );
      // An unsafe operation answered UNKNOWN_ERROR without field errors may have been processed: the API error
      // comes as the cause of ExchangeAmbiguousResultError instead of being retried.
      const error = thrown instanceof ExchangeAmbiguousResultError ? thrown.cause : thrown;
      if (thrown !== error) expect(example.err_code).toBe("UNKNOWN_ERROR");
      expect(error).toBeInstanceOf(ExchangeApiError);
      expect(error.status).toBe(400);
      expect(error.errCode).toBe(example.err_code);
      expect(error.message).toBe(example.message);
      expect(error.fieldErrors).toEqual(normalizeFieldErrors(example.errors ?? example.error));
      expect(error.operation).toEqual({ operationId, method: op.method, path: op.path });
      expect(error.body).toEqual(example);
    },
  );

  it.each([
    ["401", "fix", 1],
    ["404", "fix", 1],
    ["429", "retry", 4],
    ["500", "escalate", 4],
    ["503", "escalate", 4],
  ] as const)(
    "turns the shared %s example into the matching ExchangeApiError (%s after %i attempts)",
    async (code, action, attempts) => {
      const getCustomer = operations.find((op) => op.operationId === "getCustomer")!;
      const example = firstExampleOf(getCustomer.operation.responses[code].content["application/json"]) as Record<
        string,
        any
      >;
      const error = await failure(client.customers.get(CUSTOMER_ID, { headers: { Prefer: `code=${code}` } }));
      expect(error).toBeInstanceOf(ExchangeApiError);
      expect(error.status).toBe(Number(code));
      expect(error.errCode).toBe(example.err_code);
      expect(error.action).toBe(action);
      expect(error.attempts).toBe(attempts);
    },
  );
});
