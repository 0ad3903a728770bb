// Large answers against a real sandbox: a list page says how to get the next one, and a page over the size
// bound loses records from its end with a note that says how many, never silently.
import { afterAll, beforeAll, expect, it } from "vitest";
import { callTool, resolveContext, type ServerContext } from "../src/server.js";
import { credentials, type Sandbox, startSandbox } from "./support/sandbox.js";

let sandbox: Sandbox;
let context: ServerContext;

beforeAll(async () => {
  sandbox = await startSandbox();
  context = await resolveContext({ baseUrl: sandbox.url, ...credentials, allowWrites: true, maxResultBytes: 1200 });
  for (let i = 0; i < 12; i++)
    await callTool(context, "createCustomer", {
      body: { client_reference_id: `large-${i}`, full_name: "Asha Verma", alpha_3_country_code: "IND" },
    });
});
afterAll(() => sandbox?.close());

it("says which page a list answer is and how to get the next", async () => {
  const result = await callTool({ ...context, maxResultBytes: 60_000 }, "listCustomers", { per_page: 10 });
  expect(result.content[0]!.text.split("\n")[0]).toBe(
    "page 1 of 2 (12 records, 10 per page): call listCustomers with page: 2 and per_page: 10 for the next",
  );
});

it("cuts a page over the bound from its end and says how many records it left out", async () => {
  const result = await callTool(context, "listCustomers", { per_page: 10 });
  const kept = (result.structuredContent as { results: unknown[] }).results.length;
  expect(kept).toBeLessThan(10);
  expect(result.content[0]!.text).toContain(
    `cut: the last ${10 - kept} record(s) of this page are left out to stay under 1200 bytes; ask for a smaller per_page`,
  );
});
