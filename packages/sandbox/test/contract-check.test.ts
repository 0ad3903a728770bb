// createContractChecker: the published spec as a contract for exchanges with the real service (what
// `exchange-kit proxy` checks), and the sandbox's spec for exchanges with the sandbox. One behaviour per test; the spec is the installed @exchange-kit/openapi.
import { describe, expect, it } from "vitest";
import { createContractChecker } from "../src/index.js";

const checker = createContractChecker();
const AUTH = { "x-api-key": "key_contract", "x-timestamp": "1700000000", "x-signature": "c2lnbmF0dXJl" };
const JSON_HEADERS = { ...AUTH, "content-type": "application/json" };
const bytes = (value: unknown) => new TextEncoder().encode(typeof value === "string" ? value : JSON.stringify(value));
const CREATE = "/cms/api/v1/customer/create";
const found = (list: { pointer: string; rule: string }[]) => list.map((v) => [v.pointer, v.rule]);

describe("matching a request with an operation", () => {
  it.each([
    ["GET", "/cms/api/v1/customer/list?page=2", "listCustomers"],
    ["GET", "/cms/api/v1/customer/3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f", "getCustomer"],
    ["POST", CREATE, "createCustomer"],
    ["GET", "/cms/api/v1/customer/create", "getCustomer"], // a template matches any segment, as the service routes
    ["DELETE", "/cms/api/v1/customer/list", undefined],
    ["GET", "/cms/api/v1/nothing", undefined],
  ])("%s %s is %s", (method, url, operationId) => {
    expect(checker.operationFor(method, url)).toBe(operationId);
  });

  it("reports a request for no operation of the spec, with its method and path but not its query", () => {
    const violations = checker.checkRequest({
      method: "GET",
      url: "/nothing?email=a@b.example",
      headers: AUTH,
      body: undefined,
    });
    expect(violations).toEqual([
      {
        operationId: undefined,
        part: "request",
        pointer: "",
        rule: "operation",
        message: "no operation for GET /nothing",
      },
    ]);
  });
});

describe("checking a request", () => {
  const valid = { client_reference_id: "c-1", full_name: "Asha Verma" };

  it("finds nothing wrong with a request as the published spec describes it", () => {
    expect(checker.checkRequest({ method: "POST", url: CREATE, headers: JSON_HEADERS, body: bytes(valid) })).toEqual(
      [],
    );
  });

  it("holds the service to the published spec, not to the members only the sandbox requires (x-sandbox-required)", () => {
    // alpha_3_country_code is in createCustomer's x-sandbox-required: the sandbox answers 400 without it.
    const violations = checker.checkRequest({ method: "POST", url: CREATE, headers: JSON_HEADERS, body: bytes(valid) });
    expect(found(violations)).not.toContainEqual(["/body/alpha_3_country_code", "required"]);
  });

  it("holds the sandbox to the sandbox's spec: the members only the sandbox requires are required", () => {
    const sandbox = createContractChecker({ against: "sandbox" });
    const violations = sandbox.checkRequest({ method: "POST", url: CREATE, headers: JSON_HEADERS, body: bytes(valid) });
    expect(found(violations)).toContainEqual(["/body/alpha_3_country_code", "required"]);
  });

  it("refuses an http:// loopback webhook URL for the service and takes it for the sandbox", () => {
    const request = {
      method: "POST",
      url: "/org/api/v1/organizations/api-webhooks",
      headers: JSON_HEADERS,
      body: bytes({ webhook_url: "http://127.0.0.1:3000/webhooks" }),
    };
    expect(found(checker.checkRequest(request))).toContainEqual(["/body/webhook_url", "pattern"]);
    expect(createContractChecker({ against: "sandbox" }).checkRequest(request)).toEqual([]);
  });

  it("refuses an http:// webhook URL off the loopback interface for the sandbox too", () => {
    const request = {
      method: "POST",
      url: "/org/api/v1/organizations/api-webhooks",
      headers: JSON_HEADERS,
      body: bytes({ webhook_url: "http://hooks.example.in/events" }),
    };
    expect(found(createContractChecker({ against: "sandbox" }).checkRequest(request))).toContainEqual([
      "/body/webhook_url",
      "pattern",
    ]);
  });

  it("folds the alternatives of an anyOf into one violation that says what would do", () => {
    const body = bytes({ client_reference_id: "c-1" });
    expect(checker.checkRequest({ method: "POST", url: CREATE, headers: JSON_HEADERS, body })).toEqual([
      {
        operationId: "createCustomer",
        part: "request",
        pointer: "/body",
        rule: "anyOf",
        message:
          "must match a schema in anyOf: /body/full_name required, or /body/first_name required and /body/last_name required",
      },
    ]);
  });

  it("points at each missing credential header", () => {
    const headers = { "x-api-key": "k", "content-type": "application/json" };
    const violations = checker.checkRequest({ method: "POST", url: CREATE, headers, body: bytes(valid) });
    expect(found(violations)).toEqual([
      ["/headers/x-timestamp", "security"],
      ["/headers/x-signature", "security"],
    ]);
  });

  it("points at each bad member of the body with the rule it breaks, never its value", () => {
    const body = { full_name: 42, alpha_3_country_code: "india" };
    const violations = checker.checkRequest({ method: "POST", url: CREATE, headers: JSON_HEADERS, body: bytes(body) });
    expect(found(violations)).toEqual([
      ["/body/client_reference_id", "required"],
      ["/body/alpha_3_country_code", "pattern"],
      ["/body/full_name", "type"],
    ]);
    expect(JSON.stringify(violations)).not.toContain("india");
  });

  it.each([
    ["query values read as the types the spec gives (page=2 is an integer)", "?page=2&per_page=50", []],
    ["a query value below its minimum", "?page=0", [["/query/page", "minimum"]]],
    ["a query value of another type", "?per_page=many", [["/query/per_page", "type"]]],
  ])("checks %s", (_name, query, expected) => {
    const violations = checker.checkRequest({
      method: "GET",
      url: `/cms/api/v1/customer/list${query}`,
      headers: AUTH,
      body: undefined,
    });
    expect(found(violations)).toEqual(expected);
  });

  it("checks a path parameter against its schema", () => {
    const violations = checker.checkRequest({
      method: "GET",
      url: "/cms/api/v1/customer/not-a-uuid",
      headers: AUTH,
      body: undefined,
    });
    expect(found(violations)).toEqual([["/path/customer_id", "format"]]);
  });

  it.each([
    ["a missing required body", JSON_HEADERS, new Uint8Array(), [["/body", "required"]]],
    [
      "a body of another media type",
      { ...AUTH, "content-type": "text/plain" },
      bytes("x"),
      [["/headers/content-type", "content-type"]],
    ],
    ["a body that is not JSON", JSON_HEADERS, bytes("{"), [["/body", "json"]]],
    ["a body that was not kept (not checked)", JSON_HEADERS, undefined, []],
  ])("reports %s", (_name, headers, body, expected) => {
    expect(found(checker.checkRequest({ method: "POST", url: CREATE, headers, body }))).toEqual(expected);
  });
});

describe("checking an answer", () => {
  const customer = {
    id: "3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f",
    client_reference_id: "c-1",
    full_name: "Asha Verma",
    country: "IND",
    type: "INDIVIDUAL",
    status: "UNVERIFIED",
  };
  const request = { method: "POST", url: CREATE };
  const answer = (status: number, body: unknown) => ({
    status,
    headers: { "content-type": "application/json" },
    body: bytes(body),
  });

  it("finds nothing wrong with an answer as the spec describes it", () => {
    expect(checker.checkResponse(request, answer(200, { status: true, message: "ok", data: customer }))).toEqual([]);
  });

  it("points into the payload inside the success envelope", () => {
    const { country: _left_out, ...data } = customer;
    const violations = checker.checkResponse(
      request,
      answer(200, { status: true, message: "ok", data: { ...data, id: 7 } }),
    );
    expect(found(violations)).toEqual([
      ["/body/data/country", "required"],
      ["/body/data/id", "type"],
    ]);
    expect(violations.every((v) => v.operationId === "createCustomer" && v.part === "response")).toBe(true);
  });

  it("reports a status the operation does not declare", () => {
    expect(found(checker.checkResponse(request, answer(418, {})))).toEqual([["/status", "status"]]);
  });

  it("checks an error answer against the error envelope", () => {
    const violations = checker.checkResponse(request, answer(401, { status: false, message: "no", data: null }));
    expect(found(violations)).toEqual([["/body/err_code", "required"]]);
  });

  it("checks nothing of an answer to a path the spec does not have (its request was reported)", () => {
    expect(checker.checkResponse({ method: "GET", url: "/nothing" }, answer(200, "x"))).toEqual([]);
  });
});
