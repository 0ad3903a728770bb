import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/domain/api-error.js";
import { errorPayload, narrowErrCode, sendError, sendResult } from "../../src/http/respond.js";
import { operation } from "../../src/spec/openapi.js";

/** What a response was sent: status, headers and body text. */
function recorder(headersSent = false) {
  const sent: { status?: number; headers?: Record<string, unknown>; text?: string } = {};
  const res = {
    headersSent,
    writeHead(status: number, headers: Record<string, unknown>) {
      sent.status = status;
      sent.headers = headers;
    },
    end(text: string) {
      sent.text = text;
    },
  };
  return { res: res as unknown as ServerResponse, sent };
}

describe("narrowing an error code to the operation's list", () => {
  const createCustomer = operation("createCustomer");

  it("keeps a code the operation lists", () => {
    const error = new ApiError(400, "REQ_INVALID_COUNTRY", "Invalid country code");
    expect(narrowErrCode(error, createCustomer)).toBe(error);
  });

  it("turns a 400 code the operation does not list into INPUT_MALFORMED when the operation lists that", () => {
    expect(createCustomer.errCodes400?.has("PAYIN_DUPLICATE_UTR")).toBe(false);
    const error = new ApiError(400, "PAYIN_DUPLICATE_UTR", "Some message", { field: ["m"] });
    const narrowed = narrowErrCode(error, createCustomer);
    expect(narrowed.code).toBe("INPUT_MALFORMED");
    expect(narrowed.message).toBe("Some message");
    expect(narrowed.errors).toEqual({ field: ["m"] });
  });

  it("leaves other statuses alone", () => {
    const error = new ApiError(401, "AUTH_INVALID_SIGNATURE", "Invalid signature");
    expect(narrowErrCode(error, createCustomer)).toBe(error);
  });

  it("leaves the code alone for a route without an operation", () => {
    const error = new ApiError(400, "PAYIN_DUPLICATE_UTR", "m");
    expect(narrowErrCode(error, undefined)).toBe(error);
  });
});

describe("the error envelope", () => {
  it("carries err_code and errors", () => {
    const error = new ApiError(400, "REQ_FIELD_MISSING", "Missing", { a: ["This field is required."] });
    expect(errorPayload(error, false)).toEqual({
      status: false,
      message: "Missing",
      data: null,
      err_code: "REQ_FIELD_MISSING",
      errors: { a: ["This field is required."] },
    });
  });

  it("names the field errors `error` for the remittance quotation, free text as non_field_errors", () => {
    const error = new ApiError(400, "UNKNOWN_ERROR", "Failed", "Something went wrong");
    expect(errorPayload(error, true)).toEqual({
      status: false,
      message: "Failed",
      data: null,
      error: { non_field_errors: ["Something went wrong"] },
      err_code: "UNKNOWN_ERROR",
    });
  });
});

describe("sending", () => {
  it("writes a result as the success envelope with JSON headers and its byte length", () => {
    const { res, sent } = recorder();
    sendResult(res, { message: "Done", data: { name: "Zoë" } });
    expect(sent.status).toBe(200);
    expect(sent.text).toBe('{"status":true,"message":"Done","data":{"name":"Zoë"}}');
    expect(sent.headers).toEqual({
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(sent.text!),
    });
  });

  it("writes an error with its status and its own headers", () => {
    const { res, sent } = recorder();
    sendError(res, undefined, new ApiError(405, "UNKNOWN_ERROR", "No", {}, { Allow: "GET" }));
    expect(sent.status).toBe(405);
    expect(sent.headers).toMatchObject({ Allow: "GET" });
    expect(JSON.parse(sent.text!)).toMatchObject({ status: false, err_code: "UNKNOWN_ERROR" });
  });

  it("uses the remittance quotation's envelope on its route", () => {
    const { res, sent } = recorder();
    sendError(res, operation("createRemittancePayoutQuotation"), new ApiError(400, "UNKNOWN_ERROR", "m", { a: ["b"] }));
    expect(JSON.parse(sent.text!)).toHaveProperty("error", { a: ["b"] });
  });

  it("writes nothing once headers were sent", () => {
    const { res, sent } = recorder(true);
    sendResult(res, { message: "late", data: null });
    expect(sent).toEqual({});
  });
});
