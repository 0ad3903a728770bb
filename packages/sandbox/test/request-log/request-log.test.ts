// The request log over real HTTP: every request of an organization, read back through GET /_sandbox/requests.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSandbox } from "../../src/index.js";
import { Api, createCustomer, ORG_A, ORG_B, startSandbox, unique, uniquePhone } from "../helpers.js";

const requests = (api: Api, query: Record<string, string | number> = {}) =>
  api.ok("GET", "/_sandbox/requests", undefined, { query });

describe("the request log", () => {
  it("logs a request with its time, method, path, operationId, status, latency and both bodies", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api, { full_name: "Asha Verma" });
    const log = await requests(api);
    expect(log.count).toBe(1);
    const [entry] = log.results;
    expect(entry).toMatchObject({
      seq: 1,
      method: "POST",
      path: "/cms/api/v1/customer/create",
      operation_id: "createCustomer",
      route: "/cms/api/v1/customer/create",
      status: 200,
      err_code: null,
      request: { truncated: false },
      response: { truncated: false },
    });
    expect(Date.now() - Date.parse(entry.at)).toBeLessThan(60_000);
    expect(entry.latency_ms).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(entry.request.text).full_name).toBe("Asha Verma");
    expect(JSON.parse(entry.response.text).data.id).toBe(customer.id);
  });

  it("logs an error answer with its err_code", async () => {
    const api = new Api(await startSandbox());
    const phone = uniquePhone();
    await createCustomer(api, { phone });
    const refused = await api.post("/cms/api/v1/customer/create", {
      client_reference_id: unique("dup"),
      full_name: "Asha Verma",
      alpha_3_country_code: "IND",
      phone,
    });
    expect(refused.body.err_code).toBe("USR_DUPLICATE_CONTACT");
    const [entry] = (await requests(api, { status: "4xx" })).results;
    expect(entry).toMatchObject({
      seq: 2,
      status: 400,
      err_code: "USR_DUPLICATE_CONTACT",
      operation_id: "createCustomer",
    });
  });

  it("logs control calls and unknown paths, but not the reads of the logs themselves", async () => {
    const api = new Api(await startSandbox());
    await api.ok("POST", "/_sandbox/clock/advance", { seconds: 60 });
    await api.get("/no/such/path");
    await api.ok("GET", "/_sandbox/events");
    await requests(api);
    const log = await requests(api, { order: "asc" });
    expect(log.results.map((e: { route: string | null; status: number }) => [e.route, e.status])).toEqual([
      ["/_sandbox/clock/advance", 200],
      [null, 404],
    ]);
  });

  it("filters by status, err_code, operation_id, since and until", async () => {
    const api = new Api(await startSandbox());
    await createCustomer(api);
    await api.get("/cms/api/v1/customer/list");
    await api.get(`/cms/api/v1/customer/${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}`);
    const seqs = async (query: Record<string, string>) =>
      (await requests(api, { order: "asc", ...query })).results.map((e: { seq: number }) => e.seq);
    expect(await seqs({ status: "200" })).toEqual([1, 2]);
    expect(await seqs({ status: "4xx" })).toEqual([3]);
    expect(await seqs({ err_code: "USR_NOT_FOUND" })).toEqual([3]);
    expect(await seqs({ operation_id: "listCustomers" })).toEqual([2]);
    expect(await seqs({ since: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
    expect(await seqs({ since: new Date(Date.now() - 60_000).toISOString() })).toEqual([1, 2, 3]);
    expect(await seqs({ until: new Date(Date.now() - 60_000).toISOString() })).toEqual([]);
    const range = {
      since: new Date(Date.now() - 60_000).toISOString(),
      until: new Date(Date.now() + 60_000).toISOString(),
    };
    expect(await seqs(range)).toEqual([1, 2, 3]);
  });

  it("pages newest first with before, and oldest first from a cursor with after", async () => {
    const api = new Api(await startSandbox());
    for (let i = 0; i < 7; i++) await api.get("/cms/api/v1/customer/list");
    const seqs = (page: { results: Array<{ seq: number }> }) => page.results.map((e) => e.seq);
    const first = await requests(api, { limit: 3 });
    expect(seqs(first)).toEqual([7, 6, 5]);
    expect(seqs(await requests(api, { limit: 3, before: 5 }))).toEqual([4, 3, 2]);
    expect(seqs(await requests(api, { order: "asc", after: 5 }))).toEqual([6, 7]);
    expect(first).toMatchObject({ oldest_seq: 1, latest_seq: 7 });
  });

  it("keeps a 1 MB request body capped, with its whole size", async () => {
    const api = new Api(await startSandbox());
    const filler = "x".repeat(1_000_000);
    await api.post("/cms/api/v1/customer/create", { client_reference_id: unique("big"), full_name: filler });
    const [entry] = (await requests(api)).results;
    expect(entry.request.truncated).toBe(true);
    expect(entry.request.bytes).toBeGreaterThan(1_000_000);
    expect(Buffer.byteLength(entry.request.text)).toBeLessThanOrEqual(8192);
  });

  it("never keeps the signature, nor the API secret where a body carries it", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    await api.post("/cms/api/v1/customer/create", {
      client_reference_id: unique("leak"),
      full_name: `name ${ORG_A.apiSecret}`,
      alpha_3_country_code: "IND",
    });
    const log = JSON.stringify(await requests(api));
    expect(log).not.toContain(ORG_A.apiSecret);
    expect(log).toContain("[redacted]");
    expect(log.toLowerCase()).not.toContain("x-signature");
  });

  it("keeps a refused signature out of the log and counts it for the key's organization, and nothing for an unknown key", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    await api.as({ apiKey: ORG_A.apiKey, apiSecret: "wrong" }).get("/cms/api/v1/customer/list");
    await api.as({ apiKey: "key_nobody", apiSecret: "wrong" }).get("/cms/api/v1/customer/list");
    const a = await requests(api);
    expect(a.count).toBe(0);
    expect(a.refused).toEqual({ count: 1, last_at: expect.any(String) });
    expect(await requests(api.as(ORG_B))).toMatchObject({ count: 0, refused: { count: 0, last_at: null } });
  });

  it("lets no one who only knows the API key evict the organization's entries or plant a body in them", async () => {
    const api = new Api(await startSandbox({ requestLog: { maxEntries: 20 } }));
    const customer = await createCustomer(api, { full_name: "Asha Verma" });
    const forger = api.as({ apiKey: ORG_A.apiKey, apiSecret: "guessed" });
    const planted = `<img src=x onerror=alert(1)>${"p".repeat(8000)}`;
    for (let i = 0; i < 60; i++) {
      await forger.post("/cms/api/v1/customer/create", { client_reference_id: `forged-${i}`, full_name: planted });
    }
    await forger.get("/no/such/path");
    const log = await requests(api, { order: "asc" });
    expect(log.results.map((e: { operation_id: string }) => e.operation_id)).toEqual(["createCustomer"]);
    expect(JSON.parse(log.results[0].response.text).data.id).toBe(customer.id);
    expect(JSON.stringify(log)).not.toContain("onerror");
    expect(log.refused.count).toBe(61);
  });

  it("keeps the API secret out of the path, the query, a body cut across it and its canonical JSON form", async () => {
    const secret = 'sk_"é\\_0123456789abcdef';
    const org = { name: "Leaky", apiKey: "key_leaky", apiSecret: secret };
    const api = new Api(await startSandbox({ organizations: [org] }), org);
    await api.get(`/cms/api/v1/customer/${encodeURIComponent(secret)}`);
    await api.get("/cms/api/v1/customer/list", { query: { note: secret } });
    // The body's first 8,182 bytes, then the secret's canonical form across byte 8,192 where the body is cut.
    const prefix = '{"alpha_3_country_code":"IND","client_reference_id":"cut-1","full_name":"';
    await api.post("/cms/api/v1/customer/create", {
      client_reference_id: "cut-1",
      alpha_3_country_code: "IND",
      full_name: `${"x".repeat(8182 - prefix.length)}${secret}`,
    });
    await api.post("/cms/api/v1/customer/create", { client_reference_id: unique("esc"), full_name: secret });
    const log = await requests(api, { order: "asc" });
    expect(log.results).toHaveLength(4);
    const text = JSON.stringify(log.results);
    for (const form of [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret), "0123456789abcdef"])
      expect(text, form).not.toContain(form);
    expect(log.results.map((e: { path: string }) => e.path)[0]).toBe(`/cms/api/v1/customer/[redacted]`);
    expect(log.results[1].query).toBe("note=[redacted]");
    expect(log.results[2].request).toMatchObject({ truncated: true, text: expect.stringMatching(/x\[redacted\]$/) });
    expect(log.results[3].request.text).toContain('"full_name":"[redacted]"');
  });

  it("shows an organization its own requests only", async () => {
    const sandbox = await startSandbox();
    const a = new Api(sandbox);
    const b = a.as(ORG_B);
    await createCustomer(a);
    await b.get("/cms/api/v1/customer/list");
    expect((await requests(a)).results.map((e: { operation_id: string }) => e.operation_id)).toEqual([
      "createCustomer",
    ]);
    expect((await requests(b)).results.map((e: { operation_id: string }) => e.operation_id)).toEqual(["listCustomers"]);
  });

  it("drops the oldest entries past maxEntries, numbering on", async () => {
    const api = new Api(await startSandbox({ requestLog: { maxEntries: 5 } }));
    for (let i = 0; i < 12; i++) await api.get("/cms/api/v1/customer/list");
    const log = await requests(api, { order: "asc" });
    expect(log.results.map((e: { seq: number }) => e.seq)).toEqual([8, 9, 10, 11, 12]);
    expect(log).toMatchObject({ oldest_seq: 8, latest_seq: 12 });
  });

  it("records the fault injected into a request, and a request a fault left unanswered as status 0", async () => {
    const api = new Api(await startSandbox());
    await api.ok("POST", "/_sandbox/faults", { operation: "listCustomers", fault: "HTTP_503" });
    expect((await api.get("/cms/api/v1/customer/list")).status).toBe(503);
    await api.ok("POST", "/_sandbox/faults", { operation: "listCustomers", fault: "RESET" });
    await expect(api.get("/cms/api/v1/customer/list")).rejects.toThrow();
    await api.get("/cms/api/v1/customer/list");
    const log = await requests(api, { order: "asc", operation_id: "listCustomers" });
    expect(log.results.map((e: { status: number; fault: string | null }) => [e.status, e.fault])).toEqual([
      [503, "HTTP_503"],
      [0, "RESET"],
      [200, null],
    ]);
  });

  it("answers a bad filter with INPUT_MALFORMED naming it", async () => {
    const api = new Api(await startSandbox());
    const res = await api.get("/_sandbox/requests", { query: { status: "teapot" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ err_code: "INPUT_MALFORMED", errors: { status: [expect.any(String)] } });
  });

  it("refuses bounds that are not whole numbers of at least 1", async () => {
    await expect(createSandbox({ requestLog: { maxEntries: 0 } })).rejects.toThrow(TypeError);
    await expect(createSandbox({ requestLog: { maxBodyBytes: 1.5 } })).rejects.toThrow(/maxBodyBytes/);
  });

  it("keeps the log in the database file across a restart, numbering on", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "reqlog-")), "sandbox.db");
    const first = await createSandbox({ db, organizations: [ORG_A] });
    await new Api(first).get("/cms/api/v1/customer/list");
    await first.close();
    const second = await createSandbox({ db, organizations: [ORG_A] });
    try {
      const api = new Api(second);
      await api.get("/cms/api/v1/customer/list");
      expect((await requests(api, { order: "asc" })).results.map((e: { seq: number }) => e.seq)).toEqual([1, 2]);
    } finally {
      await second.close();
    }
  });
});
