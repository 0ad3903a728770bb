// Request faults over real HTTP: each kind answers what the interface document says (or nothing), the failing
// kinds change nothing, and rules are per organization, per operation, and count down.
import { describe, expect, it } from "vitest";
import { Api, ORG_B, startSandbox, unique } from "../helpers.js";
import { arm, attempt, customerBody } from "./fault-helpers.js";

const FAILING = [
  ["HTTP_429", 429, "TOO_MANY_REQUESTS"],
  ["HTTP_500", 500, "SYS_INTERNAL_ERROR"],
  ["HTTP_503", 503, "SYS_SERVICE_UNAVAILABLE"],
  ["NET_TIMEOUT", 400, "NET_TIMEOUT"],
  ["UNKNOWN_ERROR", 400, "UNKNOWN_ERROR"],
] as const;

async function customersOf(api: Api): Promise<number> {
  return (await api.ok("GET", "/cms/api/v1/customer/list")).count;
}

describe("request faults", () => {
  it.each(FAILING)("%s answers %i %s in the error envelope and creates nothing", async (fault, status, code) => {
    const api = new Api(await startSandbox());
    await arm(api, { operation: "createCustomer", fault });
    const reference = unique("cust");
    const res = await api.post("/cms/api/v1/customer/create", customerBody(reference));
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ status: false, message: expect.any(String), data: null, err_code: code, errors: {} });
    expect(await customersOf(api)).toBe(0);
    // The fault fired once; the same request now creates the customer.
    expect((await api.post("/cms/api/v1/customer/create", customerBody(reference))).status).toBe(200);
    expect(await customersOf(api)).toBe(1);
  });

  it("answers 429 with Retry-After when the fault asks for it, and without it otherwise", async () => {
    const api = new Api(await startSandbox());
    await arm(api, { operation: "listCustomers", fault: "HTTP_429", retry_after: 7 });
    await arm(api, { operation: "listCustomers", fault: "HTTP_429" });
    const first = await api.get("/cms/api/v1/customer/list");
    const second = await api.get("/cms/api/v1/customer/list");
    expect([first.status, first.headers["retry-after"]]).toEqual([429, "7"]);
    expect([second.status, second.headers["retry-after"]]).toEqual([429, undefined]);
  });

  it("fires on exactly the next `times` matching requests, counting down in the plan", async () => {
    const api = new Api(await startSandbox());
    const rule = await arm(api, { operation: "listCustomers", fault: "HTTP_503", times: 2 });
    expect(rule).toMatchObject({ operation: "listCustomers", fault: "HTTP_503", times: 2, remaining: 2 });
    expect((await api.get("/cms/api/v1/customer/list")).status).toBe(503);
    expect((await api.ok("GET", "/_sandbox/faults")).armed).toMatchObject([{ id: rule.id, remaining: 1 }]);
    expect((await api.get("/cms/api/v1/customer/list")).status).toBe(503);
    expect((await api.get("/cms/api/v1/customer/list")).status).toBe(200);
    const plan = await api.ok("GET", "/_sandbox/faults");
    expect(plan.armed).toEqual([]);
    expect(plan.fired.count).toBe(2);
    expect(plan.fired.by_fault).toEqual({ HTTP_503: 2 });
    expect(plan.fired.results[0]).toMatchObject({
      fault: "HTTP_503",
      source: "plan",
      rule_id: rule.id,
      operation: "listCustomers",
      method: "GET",
      path: "/cms/api/v1/customer/list",
    });
  });

  it("fires only for the organization that armed it", async () => {
    const sandbox = await startSandbox();
    const a = new Api(sandbox);
    const b = a.as(ORG_B);
    await arm(a, { operation: "listCustomers", fault: "HTTP_500" });
    expect((await b.get("/cms/api/v1/customer/list")).status).toBe(200);
    expect((await b.ok("GET", "/_sandbox/faults")).armed).toEqual([]);
    expect((await a.get("/cms/api/v1/customer/list")).status).toBe(500);
  });

  it("fires only on its operation, and on every operation of the spec for *", async () => {
    const api = new Api(await startSandbox());
    await arm(api, { operation: "createCustomer", fault: "HTTP_500" });
    expect((await api.get("/cms/api/v1/customer/list")).status).toBe(200);
    expect((await api.post("/cms/api/v1/customer/create", customerBody(unique("c")))).status).toBe(500);
    await arm(api, { operation: "*", fault: "HTTP_503" });
    expect((await api.get("/pos/api/v1/payout/configuration")).status).toBe(503);
  });

  it("never fires on the control API, even for *", async () => {
    const api = new Api(await startSandbox());
    await arm(api, { operation: "*", fault: "HTTP_500" });
    expect((await api.get("/_sandbox/clock")).status).toBe(200);
    expect((await api.ok("GET", "/_sandbox/faults")).armed).toMatchObject([{ remaining: 1 }]);
  });

  it("fires before the request is validated, so a malformed request gets the fault too", async () => {
    const api = new Api(await startSandbox());
    await arm(api, { operation: "createCustomer", fault: "HTTP_503" });
    expect((await api.post("/cms/api/v1/customer/create", {})).status).toBe(503);
  });

  it("DELAY answers normally, no sooner than delay_ms", async () => {
    const api = new Api(await startSandbox());
    await arm(api, { operation: "createCustomer", fault: "DELAY", delay_ms: 150 });
    const started = performance.now();
    const res = await api.post("/cms/api/v1/customer/create", customerBody(unique("c")));
    expect(performance.now() - started).toBeGreaterThanOrEqual(149);
    expect(res.status).toBe(200);
    expect(await customersOf(api)).toBe(1);
  });

  it("delay_ms makes a failing fault wait before it answers", async () => {
    const api = new Api(await startSandbox());
    await arm(api, { operation: "listCustomers", fault: "HTTP_500", delay_ms: 120 });
    const started = performance.now();
    expect((await api.get("/cms/api/v1/customer/list")).status).toBe(500);
    expect(performance.now() - started).toBeGreaterThanOrEqual(119);
  });

  it("RESET closes the connection without an answer and creates nothing", async () => {
    const api = new Api(await startSandbox());
    await arm(api, { operation: "createCustomer", fault: "RESET" });
    const ending = await attempt(api, "POST", "/cms/api/v1/customer/create", customerBody(unique("c")));
    expect(ending).toEqual({ answered: false, code: "ECONNRESET" });
    expect(await customersOf(api)).toBe(0);
  });

  it("DROP_AFTER_COMMIT closes the connection without an answer after creating the record", async () => {
    const api = new Api(await startSandbox());
    await arm(api, { operation: "createCustomer", fault: "DROP_AFTER_COMMIT" });
    const reference = unique("c");
    const ending = await attempt(api, "POST", "/cms/api/v1/customer/create", customerBody(reference));
    expect(ending.answered).toBe(false);
    const list = await api.ok("GET", "/cms/api/v1/customer/list");
    expect(list.results.map((c: { client_reference_id: string }) => c.client_reference_id)).toEqual([reference]);
  });

  it("logs each request that met a fault with its kind, and says when no answer was sent", async () => {
    const lines: string[] = [];
    const api = new Api(await startSandbox({ logger: { info: (line) => lines.push(line) } }));
    await arm(api, { operation: "listCustomers", fault: "HTTP_503" });
    await arm(api, { operation: "listCustomers", fault: "RESET" });
    await api.get("/cms/api/v1/customer/list");
    await attempt(api, "GET", "/cms/api/v1/customer/list");
    expect(lines).toContain("GET /cms/api/v1/customer/list 503 SYS_SERVICE_UNAVAILABLE fault HTTP_503");
    expect(lines).toContain("GET /cms/api/v1/customer/list no answer fault RESET");
  });
});
