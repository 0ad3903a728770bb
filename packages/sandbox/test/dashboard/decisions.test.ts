// The dashboard's decisions as tables: which cookie is the session's, which state change passes the CSRF check,
// which reason fields a move to a status offers, and which answered requests the request log keeps.
import type { IncomingMessage } from "node:http";
import { webhookMetadataRules } from "@exchange-kit/types";
import { describe, expect, it } from "vitest";
import { cookieValue, sameSecret } from "../../src/dashboard/access.js";
import { passesCsrf } from "../../src/dashboard/dashboard.js";
import { reasonFields } from "../../src/dashboard/transitions-meta.js";
import { isLogged } from "../../src/request-log/request-log.js";

describe("cookieValue", () => {
  it.each([
    ["a=1; exchange_kit_dashboard_4020=abc; b=2", "abc"],
    ["exchange_kit_dashboard_4020=abc", "abc"],
    ["exchange_kit_dashboard_4021=abc", undefined],
    ["xexchange_kit_dashboard_4020=abc", undefined],
    ["", undefined],
    [undefined, undefined],
  ])("reads %j as %j", (header, value) => {
    expect(cookieValue(header, "exchange_kit_dashboard_4020")).toBe(value);
  });
});

describe("passesCsrf", () => {
  const session = { org: "o", csrf: "token-1" };
  const request = (headers: Record<string, string>) =>
    ({ headers: { host: "127.0.0.1:4020", ...headers } }) as unknown as IncomingMessage;
  it.each([
    ["the token, no Origin", { "x-csrf-token": "token-1" }, true],
    ["the token and this server's Origin", { "x-csrf-token": "token-1", origin: "http://127.0.0.1:4020" }, true],
    ["no token", {}, false],
    ["another token", { "x-csrf-token": "token-2" }, false],
    ["a token of another length", { "x-csrf-token": "token-10" }, false],
    ["the token from another Origin", { "x-csrf-token": "token-1", origin: "http://evil.example" }, false],
    ["the token from another port", { "x-csrf-token": "token-1", origin: "http://127.0.0.1:4021" }, false],
  ])("%s: %s", (_what, headers, passes) => {
    expect(passesCsrf(request(headers), session)).toBe(passes);
  });

  it("compares secrets whole", () => {
    expect(sameSecret("abc", "abc")).toBe(true);
    expect(sameSecret("abc", "abd")).toBe(false);
    expect(sameSecret("ab", "abc")).toBe(false);
  });
});

describe("reasonFields", () => {
  const review = webhookMetadataRules.PAYOUT.IN_REVIEW.reason.values;
  it.each([
    [
      "PAYOUT",
      "IN_REVIEW",
      [
        { name: "reason", values: review, optional: false },
        { name: "rfi_link", values: null, optional: true },
      ],
    ],
    [
      "CUSTOMER",
      "FAILED",
      [{ name: "failure_reason", values: webhookMetadataRules.CUSTOMER.FAILED.failure_reason.values, optional: false }],
    ],
    ["PAYIN", "FAILED", [{ name: "failure_reason", values: null, optional: false }]],
    ["PAYOUT", "SUCCESS", []],
    ["CUSTOMER", "UNVERIFIED", []],
  ] as const)("%s %s offers %j", (type, status, fields) => {
    expect(reasonFields(type, status)).toEqual(fields);
  });
});

describe("isLogged", () => {
  const route = (path: string) => ({ method: "GET", path, handler: () => ({ message: "", data: null }) });
  it.each([
    ["GET", "/_sandbox/requests", false],
    ["GET", "/_sandbox/events", false],
    ["POST", "/_sandbox/events/{event_id}/redeliver", true],
    ["GET", "/cms/api/v1/customer/list", true],
  ])("%s %s: %s", (method, path, logged) => {
    expect(isLogged({ method, route: route(path) })).toBe(logged);
  });

  it("logs a request no route matched", () => {
    expect(isLogged({ method: "GET", route: undefined })).toBe(true);
  });
});
