import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/domain/api-error.js";
import { methodNotAllowed, pathNotFound } from "../../src/http/routing-errors.js";
import { errorAnswer } from "../../src/api/error-answer.js";
import { PostgresError } from "../../src/store/postgres/pg-errors.js";

describe("requests no route takes", () => {
  it("answer 404 NOT_FOUND naming the module prefixes", () => {
    const error = pathNotFound();
    expect([error.status, error.code]).toEqual([404, "NOT_FOUND"]);
    expect(error.message).toContain("/cms/api/v1, /pis/api/v1, /pos/api/v1, /org/api/v1");
  });

  it("answer 405 UNKNOWN_ERROR, not NOT_FOUND, with the allowed methods in Allow and in the errors", () => {
    const error = methodNotAllowed("PUT", ["GET", "DELETE"]);
    expect([error.status, error.code]).toEqual([405, "UNKNOWN_ERROR"]);
    expect(error.message).toBe("Method PUT not allowed on this path; allowed: GET, DELETE");
    expect(error.errors).toEqual({ method: ["Use GET or DELETE."] });
    expect(error.headers).toEqual({ Allow: "GET, DELETE" });
  });
});

describe("what a thrown value answers", () => {
  it("an ApiError answers as itself, unreported", () => {
    const reported: string[] = [];
    const error = new ApiError(400, "INPUT_MALFORMED", "Bad");
    expect(errorAnswer(error, (detail) => reported.push(detail))).toBe(error);
    expect(reported).toEqual([]);
  });

  it("a database that does not answer is 503 SYS_SERVICE_UNAVAILABLE, unreported (the store says it once)", () => {
    const reported: string[] = [];
    const error = errorAnswer(new PostgresError("connect ECONNREFUSED 127.0.0.1:5432", undefined), (detail) =>
      reported.push(detail),
    );
    expect([error.status, error.code]).toEqual([503, "SYS_SERVICE_UNAVAILABLE"]);
    expect(reported).toEqual([]);
  });

  it("anything else answers 500 SYS_INTERNAL_ERROR and reports its stack", () => {
    const reported: string[] = [];
    const thrown = new TypeError("boom");
    const error = errorAnswer(thrown, (detail) => reported.push(detail));
    expect([error.status, error.code, error.message]).toEqual([500, "SYS_INTERNAL_ERROR", "Internal Server Error"]);
    expect(reported).toEqual([thrown.stack]);
  });
});
