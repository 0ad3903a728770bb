import { describe, expect, it } from "vitest";
import { requestOrigin, requestTarget, requestValues } from "../../src/http/request-target.js";

describe("the request target", () => {
  it("splits the path from the query string", () => {
    expect(requestTarget("/cms/api/v1/customer/list?page=2&per_page=10")).toEqual({
      path: "/cms/api/v1/customer/list",
      search: "page=2&per_page=10",
    });
  });

  it("has an empty query string when there is no ?", () => {
    expect(requestTarget("/cms/api/v1/customer/list")).toEqual({ path: "/cms/api/v1/customer/list", search: "" });
  });
});

describe("the request values", () => {
  it("keeps the first value of a repeated query name", () => {
    expect(requestValues(new URLSearchParams("status=A&status=B"), {})).toEqual({ status: "A" });
  });

  it("lets the path's values override query values of the same name", () => {
    expect(requestValues(new URLSearchParams("customer_id=from-query&page=2"), { customer_id: "from-path" })).toEqual({
      customer_id: "from-path",
      page: "2",
    });
  });
});

describe("the request origin", () => {
  it("is http:// and the Host header", () => {
    expect(requestOrigin({ host: "127.0.0.1:4010" })).toBe("http://127.0.0.1:4010");
  });

  it("is https:// behind a proxy that sends X-Forwarded-Proto: https", () => {
    expect(requestOrigin({ host: "sandbox.example", "x-forwarded-proto": "https" })).toBe("https://sandbox.example");
  });

  it("is localhost without a Host header", () => {
    expect(requestOrigin({})).toBe("http://localhost");
  });
});
