import { describe, expect, it } from "vitest";
import { operations } from "../src/spec/openapi.js";
import { contractCalls } from "./contract-calls.js";
import { Api, createCustomer, kycBody, startSandbox } from "./helpers.js";
import { assertResponseMatchesSpec, SpecViolation } from "./spec-responses.js";

describe("every operation of the spec", () => {
  it("answers 200 with a body that matches the operation's schema", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    const calls = await contractCalls(api);
    expect(Object.keys(calls).sort()).toEqual(operations.map((op) => op.operationId).sort());
    for (const op of operations) {
      const [path, body, query] = calls[op.operationId]!;
      const res = await api.request(op.method, path, { body, query });
      expect(res.status, `${op.operationId}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.checkedAgainst).toBe(`${op.operationId}:200`);
    }
  });

  it("answers 400 for an empty request with a code the operation lists", async () => {
    const api = new Api(await startSandbox());
    for (const op of operations) {
      const path = op.path.replace("{wallet_id}", "1").replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000");
      const res = await api.request(op.method, path, {
        body: op.method === "GET" || op.method === "DELETE" ? undefined : {},
      });
      // The response check has already matched err_code against the operation's 400 enum.
      expect([200, 400], `${op.operationId}: ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
    }
  });

  it("rejects, in the response check itself, a body that breaks the spec", () => {
    expect(() =>
      assertResponseMatchesSpec("GET", "/cms/api/v1/customer/x", 400, {
        status: false,
        message: "m",
        data: null,
        err_code: "BANK_NOT_FOUND",
        errors: {},
      }),
    ).toThrow(SpecViolation);
    expect(() =>
      assertResponseMatchesSpec("GET", "/cms/api/v1/customer/x", 200, {
        status: true,
        message: "m",
        data: { id: "x" },
      }),
    ).toThrow(SpecViolation);
    expect(() => assertResponseMatchesSpec("GET", "/cms/api/v1/customer/x", 302, {})).toThrow(SpecViolation);
  });
});

describe("request validation", () => {
  it("answers REQ_FIELD_MISSING with 'This field is required.' per missing field", async () => {
    const api = new Api(await startSandbox());
    const res = await api.post("/cms/api/v1/customer/create", { full_name: "A" });
    expect(res.body).toMatchObject({
      err_code: "REQ_FIELD_MISSING",
      errors: { client_reference_id: ["This field is required."], alpha_3_country_code: ["This field is required."] },
    });
  });

  it("answers REQ_FIELD_MISSING for full_name when neither it nor first and last names are sent", async () => {
    const api = new Api(await startSandbox());
    const res = await api.post("/cms/api/v1/customer/create", {
      client_reference_id: "x",
      alpha_3_country_code: "IND",
      first_name: "A",
    });
    expect(res.body).toMatchObject({
      err_code: "REQ_FIELD_MISSING",
      errors: { full_name: ["This field is required."] },
    });
  });

  it("answers INPUT_MALFORMED for a bad format, type or length", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api);
    const long = await api.post("/cms/api/v1/kyc/add-kyc-data", kycBody(customer.id, { tax_number: "X".repeat(16) }));
    expect(long.body).toMatchObject({
      err_code: "INPUT_MALFORMED",
      errors: { tax_number: ["Ensure this field has no more than 15 characters."] },
    });
    const dob = await api.post("/cms/api/v1/kyc/add-kyc-data", kycBody(customer.id, { dob: "1992-08-15" }));
    expect(dob.body).toMatchObject({
      err_code: "INPUT_MALFORMED",
      errors: { dob: ["Date must be in DD-MM-YYYY format."] },
    });
  });

  it("answers a bad customer ID with the operation's own code", async () => {
    const api = new Api(await startSandbox());
    expect((await api.get("/cms/api/v1/customer/123")).body.err_code).toBe("USR_NOT_FOUND");
    expect((await api.get("/cms/api/v1/kyc/configuration/123")).body.err_code).toBe("USR_NOT_FOUND");
    expect((await api.get("/pos/api/v1/payout/limits/123")).body.err_code).toBe("USR_UNVERIFIED");
    expect((await api.get("/pos/api/v1/payout/edd/list", { query: { customer_id: "123" } })).body.err_code).toBe(
      "INPUT_INVALID_PARAMETER",
    );
    expect((await api.post("/cms/api/v1/kyc/add-kyc-data", kycBody("123"))).body.err_code).toBe("INPUT_MALFORMED");
  });

  it("falls back to UNKNOWN_ERROR where the operation lists no validation code", async () => {
    const api = new Api(await startSandbox());
    const res = await api.get("/pos/api/v1/prefunded/payout/history", { query: { per_page: 500 } });
    expect(res.body).toMatchObject({ err_code: "UNKNOWN_ERROR", errors: { per_page: [expect.any(String)] } });
    const history = await api.get("/pos/api/v1/payout/history", { query: { per_page: 500 } });
    expect(history.body.err_code).toBe("INPUT_MALFORMED");
  });
});
