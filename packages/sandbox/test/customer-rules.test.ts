import { describe, expect, it } from "vitest";
import { residenceProblem } from "../src/api/customers.js";

describe("the residence country of a new customer", () => {
  const cases: Array<[residence: unknown, country: string, code: string | undefined]> = [
    [undefined, "IND", undefined],
    ["IND", "IND", undefined],
    ["USA", "IND", "REQ_NON_RESIDENT_UNSUPPORTED"],
    ["XYZ", "IND", "REQ_INVALID_RESIDENCE_COUNTRY"],
    ["ind", "IND", "REQ_INVALID_RESIDENCE_COUNTRY"],
    [42, "IND", "REQ_INVALID_RESIDENCE_COUNTRY"],
    [null, "IND", "REQ_INVALID_RESIDENCE_COUNTRY"],
  ];
  it.each(cases)("%j for a customer onboarded in %s is refused with %s", (residence, country, code) => {
    const problem = residenceProblem(residence, country);
    expect(problem?.code).toBe(code);
    if (problem) expect(problem.errors).toEqual({ residence_country: [problem.message] });
  });
});
