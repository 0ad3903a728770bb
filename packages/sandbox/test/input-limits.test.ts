import { describe, expect, it } from "vitest";
import { FEATURE_SCHEMA } from "../src/compose/store-wiring.js";
import { StoreFaultPlan } from "../src/faults/fault-plan.js";
import { buildRoutes } from "../src/routes.js";
import { Store } from "../src/store/store.js";
import { parseJson } from "@exchange-kit/signing";
import { MAX_JSON_DEPTH } from "../src/json/nesting-depth.js";
import { Api, canonical, createCustomer, kycBody, startSandbox, verifiedCustomer, waitFor } from "./helpers.js";

/** Canonical text of `body` with `deep` set to arrays nested `levels` deep (the body object adds one level). */
function withDeepMember(body: Record<string, unknown>, levels: number): string {
  const marker = "__deep_marker__";
  const text = canonical({ ...body, deep: marker });
  return text.replace(JSON.stringify(marker), `${"[".repeat(levels)}${"]".repeat(levels)}`);
}

const EDD_SAVE = "/pis/api/v1/payin/edd/save";
const EDD_LIST = "/pis/api/v1/payin/edd/list";

describe("request bodies nested too deeply", () => {
  it(`refuses a body nested deeper than ${MAX_JSON_DEPTH} levels on every operation that takes a body, before anything is stored`, async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    const customer = await createCustomer(api);
    // The routes of the fault plan too (their paths only: they are called on the sandbox started above).
    const store = await Store.open({ featureSchema: FEATURE_SCHEMA });
    const routes = buildRoutes({ faults: new StoreFaultPlan(store) }).filter(
      (r) => !r.public && ["POST", "PUT", "PATCH"].includes(r.method),
    );
    await store.close();
    expect(routes.map((r) => r.path)).toContain("/_sandbox/faults");
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      const path = route.path.replace(/\{[^}]+\}/g, customer.id);
      const res = await api.request(route.method, path, {
        rawBody: withDeepMember({ customer_id: customer.id }, MAX_JSON_DEPTH),
      });
      expect(res.status, `${route.method} ${route.path}`).toBe(400);
      expect(res.body.message, `${route.method} ${route.path}`).toContain("nested too deeply");
      if (route.operation?.errCodes400?.has("INPUT_MALFORMED") ?? true)
        expect(res.body.err_code).toBe("INPUT_MALFORMED");
    }
    expect((await api.ok("GET", "/cms/api/v1/customer/list")).count).toBe(1);
    expect((await api.ok("GET", "/_sandbox/events")).count).toBe(0);
    expect(await api.ok("GET", `${EDD_LIST}?customer_id=${customer.id}`)).toEqual([]);
  });

  it("keeps a deeply nested EDD body out of the store, and the EDD list keeps answering", async () => {
    const api = new Api(await startSandbox());
    const customer = await verifiedCustomer(api);
    const res = await api.request("POST", EDD_SAVE, { rawBody: withDeepMember({ customer_id: customer.id }, 10_000) });
    expect(res.status).toBe(400);
    expect(res.body.err_code).toBe("INPUT_MALFORMED");
    expect(await api.ok("GET", `${EDD_LIST}?customer_id=${customer.id}`)).toEqual([]);
  });

  it(`stores and returns an EDD body nested exactly ${MAX_JSON_DEPTH} levels deep`, async () => {
    const api = new Api(await startSandbox());
    const customer = await verifiedCustomer(api);
    const text = withDeepMember({ customer_id: customer.id }, MAX_JSON_DEPTH - 1);
    const saved = await api.ok("POST", EDD_SAVE, undefined, { rawBody: text });
    const [listed] = await api.ok("GET", `${EDD_LIST}?customer_id=${customer.id}`);
    expect(listed.id).toBe(saved.id);
    expect(JSON.stringify(listed.deep)).toBe(`${"[".repeat(MAX_JSON_DEPTH - 1)}${"]".repeat(MAX_JSON_DEPTH - 1)}`);
  });

  it("refuses a deep KYC body without marking KYC as submitted, so the corrected resend verifies the customer", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api);
    const deep = await api.request("POST", "/cms/api/v1/kyc/add-kyc-data", {
      rawBody: withDeepMember(kycBody(customer.id), 10_000),
    });
    expect(deep.status).toBe(400);
    await api.ok("POST", "/cms/api/v1/kyc/add-kyc-data", kycBody(customer.id));
    const verified = await waitFor(async () => {
      const found = await api.ok("GET", `/cms/api/v1/customer/${customer.id}`);
      return found.status !== "UNVERIFIED" && found;
    }, "the KYC outcome");
    expect(verified.status).toBe("VERIFIED");
  });
});

describe("object keys with escapes (V8 JSON.parse bug nodejs/node#63785)", () => {
  it("reads escaped keys correctly after the input that makes V8 misread them", () => {
    JSON.parse('{"h":1,"\\\\":2}');
    expect(Object.keys(parseJson('{"h":1,"\\u7a3c":2}') as object)).toEqual(["h", "稼"]);
    expect(parseJson('{"a":[1,{"\\u00e9":"x"}],"__proto__":{"k":true}}')).toEqual(
      JSON.parse(JSON.stringify({ a: [1, { é: "x" }], ["__proto__"]: { k: true } })),
    );
  });

  it("stores and returns the right key of an escaped member sent after one that triggers the bug", async () => {
    const api = new Api(await startSandbox());
    const customer = await verifiedCustomer(api);
    await api.ok("POST", EDD_SAVE, { customer_id: customer.id, h: 1, "\\": 2 });
    const saved = await api.ok("POST", EDD_SAVE, { customer_id: customer.id, h: 1, 稼: 2 });
    expect(saved.稼).toBe(2);
    expect(saved["\\"]).toBeUndefined();
    const listed = await api.ok("GET", `${EDD_LIST}?customer_id=${customer.id}`);
    expect(
      listed.map((e: Record<string, unknown>) => Object.keys(e).filter((k) => k !== "h" && k.length === 1)),
    ).toEqual([["\\"], ["稼"]]);
  });
});
