// The fault plan through the control API: what a malformed plan answers (a 400 naming the field), that the plan
// lives in the store (it survives a restart on a database file), and that DELETE clears it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Api, ORG_A, ORG_B, startSandbox } from "../helpers.js";
import { arm } from "./fault-helpers.js";

const dir = mkdtempSync(join(tmpdir(), "sandbox-faults-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the fault plan", () => {
  it.each([
    ["an unknown operationId", { operation: "initiatePayouts", fault: "HTTP_500" }, "INPUT_MALFORMED", "operation"],
    ["an unknown fault", { operation: "getPayout", fault: "HTTP_502" }, "INPUT_MALFORMED", "fault"],
    ["times 0", { operation: "getPayout", fault: "HTTP_500", times: 0 }, "INPUT_MALFORMED", "times"],
    ["times as text", { operation: "getPayout", fault: "HTTP_500", times: "2" }, "INPUT_MALFORMED", "times"],
    ["a fractional times", { operation: "getPayout", fault: "HTTP_500", times: 1.5 }, "INPUT_MALFORMED", "times"],
    ["DELAY without delay_ms", { operation: "getPayout", fault: "DELAY" }, "REQ_FIELD_MISSING", "delay_ms"],
    ["a negative delay_ms", { operation: "getPayout", fault: "DELAY", delay_ms: -1 }, "INPUT_MALFORMED", "delay_ms"],
    [
      "retry_after on a 500",
      { operation: "getPayout", fault: "HTTP_500", retry_after: 1 },
      "INPUT_MALFORMED",
      "retry_after",
    ],
    ["a member of no fault", { operation: "getPayout", fault: "HTTP_500", time: 2 }, "INPUT_MALFORMED", "time"],
    ["no operation", { fault: "HTTP_500" }, "REQ_FIELD_MISSING", "operation"],
    ["no fault", { operation: "getPayout" }, "REQ_FIELD_MISSING", "fault"],
    [
      "an event type on a request fault",
      { operation: "getPayout", event_type: "PAYOUT", fault: "RESET" },
      "INPUT_MALFORMED",
      "event_type",
    ],
    [
      "an operation on a webhook fault",
      { operation: "getPayout", fault: "OUT_OF_ORDER" },
      "INPUT_MALFORMED",
      "operation",
    ],
    ["an unknown event type", { event_type: "REFUND", fault: "DUPLICATE_DELIVERY" }, "INPUT_MALFORMED", "event_type"],
  ])("refuses %s with a 400 naming the field, and arms nothing", async (_what, body, code, field) => {
    const api = new Api(await startSandbox());
    const res = await api.post("/_sandbox/faults", body);
    expect(res.status).toBe(400);
    expect(res.body.err_code).toBe(code);
    expect(Object.keys(res.body.errors)).toContain(field);
    expect((await api.ok("GET", "/_sandbox/faults")).armed).toEqual([]);
  });

  it("takes times as 1 when it is left out", async () => {
    const api = new Api(await startSandbox());
    expect(await arm(api, { operation: "getPayout", fault: "RESET" })).toMatchObject({ times: 1, remaining: 1 });
  });

  it("keeps the armed rules and the fired log across a restart on a database file", async () => {
    const db = join(dir, "restart.db");
    const first = new Api(await startSandbox({ db, organizations: [ORG_A] }));
    await arm(first, { operation: "listCustomers", fault: "HTTP_503", times: 2 });
    expect((await first.get("/cms/api/v1/customer/list")).status).toBe(503);
    await first.sandbox.close();
    const second = new Api(await startSandbox({ db, organizations: [ORG_A] }));
    const plan = await second.ok("GET", "/_sandbox/faults");
    expect(plan.armed).toMatchObject([{ operation: "listCustomers", remaining: 1 }]);
    expect(plan.fired.count).toBe(1);
    expect((await second.get("/cms/api/v1/customer/list")).status).toBe(503);
    expect((await second.get("/cms/api/v1/customer/list")).status).toBe(200);
  });

  it("DELETE disarms every rule and forgets what fired, for the caller's organization only", async () => {
    const sandbox = await startSandbox();
    const a = new Api(sandbox);
    const b = a.as(sandbox.organizations[1]!);
    await arm(a, { operation: "listCustomers", fault: "HTTP_503", times: 3 });
    await arm(b, { operation: "listCustomers", fault: "HTTP_503" });
    await a.get("/cms/api/v1/customer/list");
    expect(await a.ok("DELETE", "/_sandbox/faults")).toEqual({ disarmed: 1, fired_forgotten: 1 });
    expect(await a.ok("GET", "/_sandbox/faults")).toMatchObject({ armed: [], fired: { count: 0, results: [] } });
    expect((await a.get("/cms/api/v1/customer/list")).status).toBe(200);
    expect((await b.ok("GET", "/_sandbox/faults")).armed).toHaveLength(1);
  });

  it("lists at most `limit` fired faults, newest first, and counts them all", async () => {
    const api = new Api(await startSandbox());
    await arm(api, { operation: "*", fault: "HTTP_500", times: 3 });
    await api.get("/cms/api/v1/customer/list");
    await api.get("/pos/api/v1/payout/configuration");
    await api.get("/pis/api/v1/payin/configuration");
    const plan = await api.ok("GET", "/_sandbox/faults", undefined, { query: { limit: 2 } });
    expect(plan.fired.count).toBe(3);
    expect(plan.fired.results.map((f: { operation: string }) => f.operation)).toEqual([
      "getPayinConfiguration",
      "getPayoutConfiguration",
    ]);
    expect((await api.get("/_sandbox/faults", { query: { limit: 0 } })).body.errors).toHaveProperty("limit");
  });

  it("refuses to arm a rule past 100 armed, naming the way out, and keeps the listing to the 100", async () => {
    const api = new Api(await startSandbox());
    for (let i = 0; i < 100; i++) await arm(api, { operation: "*", fault: "HTTP_500", times: 1_000_000 });
    const refused = await api.post("/_sandbox/faults", { operation: "*", fault: "HTTP_500", times: 1_000_000 });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      err_code: "INPUT_MALFORMED",
      errors: { non_field_errors: [expect.stringContaining("DELETE /_sandbox/faults")] },
    });
    expect((await api.ok("GET", "/_sandbox/faults")).armed).toHaveLength(100);
    expect((await api.as(ORG_B).ok("POST", "/_sandbox/faults", { operation: "*", fault: "HTTP_500" })).fault).toBe(
      "HTTP_500",
    );
    expect((await api.ok("DELETE", "/_sandbox/faults")).disarmed).toBe(100);
    await arm(api, { operation: "*", fault: "HTTP_500" });
  });

  it("keeps the last 1,000 fired faults of an organization and forgets older ones as more fire", async () => {
    const api = new Api(await startSandbox());
    await arm(api, { operation: "listCustomers", fault: "HTTP_503", times: 1_050 });
    for (let sent = 0; sent < 1_050; sent += 50)
      await Promise.all(Array.from({ length: 50 }, () => api.get("/cms/api/v1/customer/list")));
    const plan = await api.ok("GET", "/_sandbox/faults", undefined, { query: { limit: 1000 } });
    expect(plan.fired.count).toBe(1000);
    expect(plan.fired.by_fault).toEqual({ HTTP_503: 1000 });
    expect(plan.fired.results).toHaveLength(1000);
    expect(await api.ok("DELETE", "/_sandbox/faults")).toEqual({ disarmed: 0, fired_forgotten: 1000 });
  });
});
