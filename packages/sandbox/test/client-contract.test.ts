// The client's contract suite against the sandbox: every operation of the spec, called through the typed
// client's resource methods, succeeds, and every response the client received matches the spec.
import { createExchangeClient, isExchangeApiError, listOperations } from "@exchange-kit/client";
import { describe, expect, it } from "vitest";
import { operations } from "../src/spec/openapi.js";
import { contractCalls } from "./contract-calls.js";
import { Api, startSandbox } from "./helpers.js";
import { assertResponseMatchesSpec } from "./spec-responses.js";

type Method = (...args: unknown[]) => Promise<unknown>;

/** The values of a template's `{name}` segments in a concrete path, in path order. */
function pathArgs(template: string, path: string): string[] {
  const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "([^/]+)")}$`);
  const match = pattern.exec(path);
  if (!match) throw new Error(`${path} does not match ${template}`);
  return match.slice(1).map(decodeURIComponent);
}

describe("the typed client's contract suite against the sandbox", () => {
  it("reaches every operation through its resource method, with responses that match the spec", async () => {
    const sandbox = await startSandbox();
    const org = sandbox.organizations[0]!;
    const calls = await contractCalls(new Api(sandbox));
    const checked: string[] = [];
    const client = createExchangeClient({
      baseUrl: sandbox.url,
      apiKey: org.apiKey,
      apiSecret: org.apiSecret,
      hooks: {
        async onResponse({ method, url, response }) {
          const body = (await response.clone().json()) as unknown;
          checked.push(assertResponseMatchesSpec(method, new URL(url).pathname, response.status, body));
        },
      },
    });
    const methods = new Map(listOperations().map((op) => [op.operationId, op]));
    for (const op of operations) {
      const [path, body, query] = calls[op.operationId]!;
      const { group, name, hasBody } = methods.get(op.operationId)!;
      const args: unknown[] = pathArgs(op.path, path);
      if (hasBody) args.push(body);
      // The spec does not publish the names of these query parameters, so the client passes them untyped.
      args.push(query ? { extraQuery: query } : {});
      const method = (client as unknown as Record<string, Record<string, Method>>)[group]![name]!;
      await expect(method(...args), op.operationId).resolves.toBeDefined();
    }
    for (const op of operations) expect(checked).toContain(`${op.operationId}:200`);
  });

  it("turns the sandbox's error envelope into a typed ExchangeApiError", async () => {
    const sandbox = await startSandbox();
    const org = sandbox.organizations[0]!;
    const client = createExchangeClient({ baseUrl: sandbox.url, apiKey: org.apiKey, apiSecret: org.apiSecret });
    const error = await client.customers.get("00000000-0000-4000-8000-000000000000").catch((e: unknown) => e);
    expect(isExchangeApiError(error, "USR_NOT_FOUND")).toBe(true);
  });

  it("is refused with AUTH_INVALID_SIGNATURE when the client holds the wrong secret", async () => {
    const sandbox = await startSandbox();
    const client = createExchangeClient({
      baseUrl: sandbox.url,
      apiKey: sandbox.organizations[0]!.apiKey,
      apiSecret: "wrong",
    });
    const error = await client.customers.list().catch((e: unknown) => e);
    expect(isExchangeApiError(error, "AUTH_INVALID_SIGNATURE")).toBe(true);
    expect(isExchangeApiError(error) && error.action).toBe("fix");
  });
});
