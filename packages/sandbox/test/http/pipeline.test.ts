import type { IncomingHttpHeaders } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../src/domain/api-error.js";
import { processRequest, type PipelineOptions, type RoutedRequest } from "../../src/http/pipeline.js";
import { requestTarget } from "../../src/http/request-target.js";
import type { Handler, Organization, RequestContext, RouteDefinition } from "../../src/api/route.js";
import { operation } from "../../src/spec/openapi.js";
import { canonical, sign } from "../helpers.js";

const ORG: Organization = { id: "org-1", name: "Org", apiKey: "key_1", apiSecret: "secret_1" };
const BY_KEY = new Map([[ORG.apiKey, ORG]]);
const OPTIONS: PipelineOptions<"domain"> = {
  organizationsByKey: { get: async (key) => BY_KEY.get(key) },
  domain: "domain",
};
const OK = { message: "ok", data: null };

function signed(body: string | Buffer = "{}"): IncomingHttpHeaders {
  const timestamp = Math.floor(Date.now() / 1000);
  return { "x-api-key": ORG.apiKey, "x-timestamp": String(timestamp), "x-signature": sign(ORG, timestamp, body) };
}

function routed(
  route: RouteDefinition<"domain">,
  options: { url?: string; body?: string | Buffer; headers?: IncomingHttpHeaders; pathParams?: Record<string, string> },
): RoutedRequest<"domain"> {
  const raw = Buffer.from(options.body ?? "");
  return {
    method: route.method,
    headers: options.headers ?? signed(raw.length > 0 ? raw : "{}"),
    target: requestTarget(options.url ?? route.path),
    route,
    pathParams: options.pathParams ?? {},
    raw,
  };
}

function route(handler: Handler<"domain">, extra: Partial<RouteDefinition<"domain">> = {}): RouteDefinition<"domain"> {
  return { method: "POST", path: "/things", handler, ...extra };
}

async function failure(work: () => Promise<unknown>): Promise<ApiError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("the request was answered");
}

describe("the request pipeline", () => {
  it("answers 400 INPUT_MALFORMED, not 401, for a body that is not UTF-8, whatever its signature", async () => {
    const handler = vi.fn(() => OK);
    const error = await failure(
      async () => await processRequest(routed(route(handler), { body: Buffer.from([0xff]), headers: {} }), OPTIONS),
    );
    expect([error.status, error.code]).toEqual([400, "INPUT_MALFORMED"]);
    expect(handler).not.toHaveBeenCalled();
  });

  it("checks the signature before parsing: an unsigned body that is not JSON answers 401", async () => {
    const error = await failure(
      async () =>
        await processRequest(
          routed(
            route(() => OK),
            { body: "not json", headers: {} },
          ),
          OPTIONS,
        ),
    );
    expect([error.status, error.code]).toEqual([401, "AUTH_MISSING_HEADERS"]);
  });

  it("answers 400 INPUT_MALFORMED for a signed body that is not JSON", async () => {
    const error = await failure(
      async () =>
        await processRequest(
          routed(
            route(() => OK),
            { body: "not json" },
          ),
          OPTIONS,
        ),
    );
    expect([error.status, error.message]).toEqual([400, "Malformed JSON body"]);
  });

  it("passes the signing organization, the parsed body, query, origin and path to the handler", async () => {
    let seen: RequestContext<"domain"> | undefined;
    const body = canonical({ name: "Zoë" });
    await processRequest(
      routed(
        route((ctx) => {
          seen = ctx;
          return OK;
        }),
        { url: "/things?x=1", body, headers: { ...signed(body), host: "sandbox.test" } },
      ),
      OPTIONS,
    );
    expect(seen?.org).toBe(ORG);
    expect(seen?.body).toEqual({ name: "Zoë" });
    expect(seen?.query.get("x")).toBe("1");
    expect(seen?.params).toEqual({ x: "1" });
    expect(seen?.origin).toBe("http://sandbox.test");
    expect(seen?.path).toBe("/things");
    expect(seen?.domain).toBe("domain");
  });

  it("does not authenticate a public route", async () => {
    const handler = vi.fn(() => OK);
    await processRequest(routed(route(handler, { method: "GET", public: true }), { headers: {} }), OPTIONS);
    expect(handler).toHaveBeenCalledOnce();
  });

  it("answers the operation's validation error before the handler runs", async () => {
    const handler = vi.fn(() => OK);
    const createCustomer = operation("createCustomer");
    const error = await failure(
      async () =>
        await processRequest(routed(route(handler, { operation: createCustomer }), { body: canonical({}) }), OPTIONS),
    );
    expect([error.status, error.code]).toEqual([400, "REQ_FIELD_MISSING"]);
    expect(handler).not.toHaveBeenCalled();
  });

  it("hands the handler query values coerced by the operation's parameter schemas", async () => {
    let page: unknown;
    const listCustomers = route(
      (ctx) => {
        page = ctx.params.page;
        return OK;
      },
      { method: "GET", operation: operation("listCustomers") },
    );
    await processRequest(routed(listCustomers, { url: "/list?page=2" }), OPTIONS);
    expect(page).toBe(2);
  });

  it("runs the handler inside the transaction and returns its result", async () => {
    const order: string[] = [];
    const transaction = <R>(work: () => R): R => {
      order.push("begin");
      const result = work();
      order.push("commit");
      return result;
    };
    const result = await processRequest(
      routed(
        route(() => {
          order.push("handler");
          return { message: "done", data: 1 };
        }),
        {},
      ),
      { ...OPTIONS, transaction },
    );
    expect(order).toEqual(["begin", "handler", "commit"]);
    expect(result).toEqual({ message: "done", data: 1 });
  });
});
