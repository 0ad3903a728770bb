// The dashboard's decisions as tables: which Authorization header carries a session, which Origin may call,
// how many live streams a session may hold, which reason fields a move to a status offers, and which answered
// requests the request log keeps.
import { webhookMetadataRules } from "@exchange-kit/types";
import { describe, expect, it } from "vitest";
import { bearerToken, fromOwnOrigin } from "../../src/dashboard/access.js";
import { StreamCap } from "../../src/dashboard/stream-cap.js";
import { reasonFields } from "../../src/dashboard/transitions-meta.js";
import { isLogged } from "../../src/request-log/request-log.js";

describe("bearerToken", () => {
  it.each([
    ["Bearer abc-_1", "abc-_1"],
    ["bearer abc", "abc"],
    ["  Bearer abc  ", "abc"],
    ["Basic abc", undefined],
    ["Bearer ", undefined],
    ["Bearer a b", undefined],
    ["Bearer a;b", undefined],
    [`Bearer ${"a".repeat(129)}`, undefined],
    ["", undefined],
    [undefined, undefined],
  ])("reads %j as %j", (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });
});

describe("fromOwnOrigin", () => {
  it.each([
    ["no Origin (not a cross-origin browser call)", undefined, true],
    ["this server's origin", "http://127.0.0.1:4020", true],
    ["another port of the same host", "http://127.0.0.1:4021", false],
    ["another host", "http://evil.example", false],
    ["this host and port over https (a balancer that ends TLS)", "https://127.0.0.1:4020", true],
    ["another host on this port", "http://127.0.0.2:4020", false],
    ["this host without the port", "http://127.0.0.1", false],
    ["an opaque origin", "null", false],
  ])("%s: %s", (_what, origin, own) => {
    expect(fromOwnOrigin(origin, "127.0.0.1:4020")).toBe(own);
  });

  it("refuses any Origin when the request names no host", () => {
    expect(fromOwnOrigin("http://127.0.0.1:4020", undefined)).toBe(false);
  });
});

describe("StreamCap", () => {
  it("gives a session streams up to its limit, then none until one of its own closes", () => {
    const cap = new StreamCap(2);
    expect([cap.take("a"), cap.take("a"), cap.take("a")]).toEqual([true, true, false]);
    expect(cap.take("b")).toBe(true);
    cap.give("a");
    expect(cap.take("a")).toBe(true);
    expect(cap.take("a")).toBe(false);
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
