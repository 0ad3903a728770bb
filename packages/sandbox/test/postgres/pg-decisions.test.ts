// The PostgreSQL engine's decisions on a failure, as tables: why a start is refused, and whether a request's
// failure means the database is unavailable (503) rather than a fault of the sandbox (500), and how long a
// transaction that lost a serialization race waits before it runs again.
import { describe, expect, it } from "vitest";
import { PostgresError } from "../../src/store/postgres/pg-errors.js";
import {
  availabilityChange,
  conflictRetryDelay,
  isRetryableConflict,
  isStoreUnavailable,
  MAX_CONFLICT_ATTEMPTS,
} from "../../src/store/postgres/pg-database.js";
import { displayUrl, pgStartProblem, urlSecrets } from "../../src/store/postgres/pg-open.js";
import { isOutageLine } from "../../src/store/store.js";

describe("pgStartProblem", () => {
  it.each([
    [
      { code: "28P01", message: "password authentication failed" },
      "permission-denied",
      "PostgreSQL refused the user name or password",
    ],
    [
      { code: "28000", message: "role does not exist" },
      "permission-denied",
      "PostgreSQL refused the user name or password",
    ],
    [
      { code: "3D000", message: "database x does not exist" },
      "cannot-open",
      "the database does not exist (create it first)",
    ],
    [
      { code: "42501", message: "permission denied for schema public" },
      "permission-denied",
      "the user may not create tables in this database",
    ],
    [{ code: "XX000", message: "internal error" }, "cannot-open", "internal error"],
    [
      { message: "connect ECONNREFUSED 127.0.0.1:1" },
      "cannot-open",
      "PostgreSQL cannot be reached (connect ECONNREFUSED 127.0.0.1:1)",
    ],
  ])("reads %j as %s", (error, problem, says) => {
    const found = pgStartProblem(error);
    expect(found.problem).toBe(problem);
    expect(found.says.startsWith(says)).toBe(true);
  });
});

describe("isStoreUnavailable", () => {
  it.each([
    [new PostgresError("connect ECONNREFUSED", undefined), true],
    [new PostgresError("connection lost during the transaction", "08006"), true],
    [new PostgresError("terminating connection due to administrator command", "57P01"), true],
    [new PostgresError("too many connections", "53300"), true],
    // Only a conflict that outlasted every run of its transaction reaches the answer (store.ts reruns the others).
    [new PostgresError("could not serialize access", "40001"), true],
    [new PostgresError("deadlock detected", "40P01"), true],
    [new PostgresError("duplicate key value violates unique constraint", "23505"), false],
    [new PostgresError("syntax error", "42601"), false],
    [new Error("anything else"), false],
  ])("answers %s with %s", (error, unavailable) => {
    expect(isStoreUnavailable(error)).toBe(unavailable);
  });
});

describe("isRetryableConflict", () => {
  it.each([
    ["40001", true],
    ["40P01", true],
    ["23505", false],
    [undefined, false],
  ])("runs a transaction again after SQLSTATE %s: %s", (code, retry) => {
    expect(isRetryableConflict(new PostgresError("failed", code))).toBe(retry);
  });
});

describe("conflictRetryDelay", () => {
  const conflict = new PostgresError("could not serialize access", "40001");
  it.each([
    ["a lost race, after the first run, at any draw", conflict, 1, 0.99, 0],
    ["a lost race, after the second run, at the top draw", conflict, 2, 0.99, 1],
    ["a lost race, after the sixth run, halfway", conflict, 6, 0.5, 16],
    ["a lost race, after the tenth run: the cap of 50 ms", conflict, 10, 0.999, 49],
    ["a deadlock, after the third run, at the bottom draw", new PostgresError("deadlock", "40P01"), 3, 0, 0],
    ["a lost race, once every run is used", conflict, MAX_CONFLICT_ATTEMPTS, 0.5, undefined],
    ["a unique violation", new PostgresError("duplicate key", "23505"), 1, 0.5, undefined],
    ["a lost connection", new PostgresError("connection lost", "08006"), 1, 0.5, undefined],
    ["an error of the sandbox", new Error("bug"), 1, 0.5, undefined],
  ])("gives the right wait (or none) before another run after %s", (_, error, attempt, random, delay) => {
    expect(conflictRetryDelay(error, attempt, random)).toBe(delay);
  });
});

describe("displayUrl", () => {
  it("never shows the password", () => {
    expect(displayUrl("postgres://sandbox:s3cret@db:5432/sb")).toBe("postgres://sandbox:***@db:5432/sb");
  });

  it.each([
    ["password", "postgres://sandbox@db:5432/sb?password=s3cret", "postgres://sandbox@db:5432/sb?password=***"],
    [
      "sslpassword",
      "postgres://sandbox@db/sb?sslmode=require&sslpassword=s3cret&application_name=x",
      "postgres://sandbox@db/sb?sslmode=require&sslpassword=***&application_name=x",
    ],
    ["PASSWORD in capitals", "postgres://db/sb?PASSWORD=s3cret", "postgres://db/sb?PASSWORD=***"],
    ["an escaped value", "postgres://db/sb?password=s3%26cret%3D", "postgres://db/sb?password=***"],
    [
      "every form at once",
      "postgres://sandbox:s3cret@db/sb?password=s3cret&sslpassword=s3cret",
      "postgres://sandbox:***@db/sb?password=***&sslpassword=***",
    ],
  ])("never shows a %s given in the query", (_name, url, shown) => {
    expect(displayUrl(url)).toBe(shown);
  });

  it("lists every credential of a URL, as written and decoded, for masking a driver's own words", () => {
    expect(urlSecrets("postgres://u:p%40ss@db/sb?password=a%26b&sslpassword=k")).toEqual(
      expect.arrayContaining(["p%40ss", "p@ss", "a&b", "a%26b", "k"]),
    );
  });

  it("names a value that does not parse without repeating it", () => {
    expect(displayUrl("postgres://a:b@[bad")).not.toContain("a:b");
  });
});

describe("availabilityChange", () => {
  const refused = new PostgresError("connect ECONNREFUSED 127.0.0.1:5432", undefined);
  const shutdown = new PostgresError("terminating connection due to administrator command", "57P01");
  const race = new PostgresError("could not serialize access", "40001");
  const constraint = new PostgresError("duplicate key value", "23505");
  it.each([
    ["a refused connection while up", false, refused, "dropped"],
    ["a server shutting down while up", false, shutdown, "dropped"],
    ["another refusal while down", true, refused, undefined],
    ["the first answer while down", true, undefined, "recovered"],
    ["an answer while up", false, undefined, undefined],
    ["a lost race while up", false, race, undefined],
    ["a constraint violation while up", false, constraint, undefined],
    ["a constraint violation while down", true, constraint, undefined],
  ])("%s is %s", (_name, down, error, change) => {
    expect(availabilityChange(down, error)).toBe(change);
  });
});

describe("isOutageLine", () => {
  it.each([
    ["job queue: Error with notify listener (trying again in 132ms): connect ECONNREFUSED 127.0.0.1:5432", true],
    ["job queue: Cron hit an error; restarting in 122ms (attempt 1): Error: Connection terminated unexpectedly", true],
    ["job queue: connection lost (terminating connection due to administrator command)", true],
    ["job queue: Failed task 12 (progress-step, 3.1ms) with error 'boom'", false],
    ["job queue: worker w1 stopped with jobs in hand; they are queued again", false],
    ["job queue: the workers did not start (connect ECONNREFUSED 127.0.0.1:5432)", false],
  ])("%s: %s", (line, outage) => {
    expect(isOutageLine(line)).toBe(outage);
  });
});
