import { describe, expect, it } from "vitest";
import { operationSchemas } from "../src/zod.js";

// createCustomer's body: first_name and last_name are sent together (the spec's `dependentRequired`).
const body = operationSchemas.createCustomer.requestBody;
const base = { client_reference_id: "c-1", alpha_3_country_code: "IND", full_name: "Asha Verma" };

describe("dependentRequired in the zod schemas", () => {
  it("accepts first_name and last_name sent together", () => {
    expect(body.safeParse({ ...base, first_name: "Asha", last_name: "Verma" }).success).toBe(true);
  });

  it("refuses first_name without last_name, naming the missing member", () => {
    const result = body.safeParse({ ...base, first_name: "Asha" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.some((issue) => issue.path.join(".") === "last_name")).toBe(true);
  });

  it("refuses last_name without first_name", () => {
    expect(body.safeParse({ ...base, last_name: "Verma" }).success).toBe(false);
  });
});
