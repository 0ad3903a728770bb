// `page` and `per_page` as sent on every paged route: only whole numbers in range pass; anything else is a 400
// naming the parameter, never a 500 (page=1e20 once overflowed the 64-bit OFFSET).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { integerFormErrors } from "../src/spec/request-validation.js";
import { pagingValueError, PAGING } from "../src/api/paging.js";
import { buildRoutes, SANDBOX_ONLY_PATHS } from "../src/routes.js";
import { createSandbox, type Sandbox } from "../src/index.js";
import { Api, createCustomer, ORG_A } from "./helpers.js";

/** Every route that pages: the spec's operations with a `page` parameter, and the sandbox's wallet list. */
function pagedRoutes(): Array<{ name: string; path: string; codes: ReadonlySet<string> | undefined }> {
  const routes = buildRoutes()
    .filter((r) => r.operation?.parameters.some((p) => p.name === "page"))
    .map((r) => ({ name: r.operation!.operationId, path: r.path, codes: r.operation!.errCodes400 }));
  return [...routes, { name: "listWallets (sandbox)", path: SANDBOX_ONLY_PATHS.listWallets, codes: undefined }];
}

const ROUTES = pagedRoutes();

/** The code a refused paging value answers: INPUT_MALFORMED, or UNKNOWN_ERROR where the operation lists no such code. */
const expectedCode = (codes: ReadonlySet<string> | undefined) =>
  !codes || codes.has("INPUT_MALFORMED") ? "INPUT_MALFORMED" : "UNKNOWN_ERROR";

const REFUSED_PAGES = [
  "1e20",
  "1e3",
  "1.5",
  "1.0",
  "-1",
  "0",
  "0x10",
  "0b1",
  "",
  " 2",
  "2 ",
  "+3",
  "NaN",
  "Infinity",
  "abc",
  String(PAGING.page.max + 1),
  "9007199254740993",
  "99999999999999999999999",
];

// One sandbox for the whole table (the helpers' sandboxes close after each test).
let sandbox: Sandbox;
let api: Api;
let customerId: string;
beforeAll(async () => {
  sandbox = await createSandbox({ organizations: [ORG_A], autoProgressMs: false });
  api = new Api(sandbox);
  customerId = (await createCustomer(api)).id;
});
afterAll(() => sandbox.close());

const target = (path: string) => path.replace(/\{[^}]+\}/g, customerId);

describe("the paged routes", () => {
  it("are the five paged operations of the spec and the wallet list", () => {
    expect(ROUTES.map((r) => r.name).sort()).toEqual([
      "listBankAccounts",
      "listCustomers",
      "listPayinHistory",
      "listPayoutHistory",
      "listPrefundedPayoutHistory",
      "listWallets (sandbox)",
    ]);
  });
});

describe.each(ROUTES)("$name", ({ path, codes }) => {
  it.each(REFUSED_PAGES)("answers 400 naming page for page=%j", async (page) => {
    const res = await api.get(target(path), { query: { page } });
    expect(res.status).toBe(400);
    expect(res.body.err_code).toBe(expectedCode(codes));
    expect(Object.keys(res.body.errors)).toEqual(["page"]);
  });

  it.each(["1e1", "10.0", "0x14", "101", "9"])("answers 400 naming per_page for per_page=%j", async (perPage) => {
    const res = await api.get(target(path), { query: { per_page: perPage } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(["per_page"]);
  });

  it.each(["1", "007", String(PAGING.page.max)])("answers a page for page=%j", async (page) => {
    const res = await api.get(target(path), { query: { page, per_page: 100 } });
    expect(res.status).toBe(200);
    expect(res.body.data.results ?? res.body.data.accounts).toBeInstanceOf(Array);
  });
});

describe("the largest page", () => {
  it("is past every row: empty results, and previous points at the last page", async () => {
    const res = await api.get("/cms/api/v1/customer/list", { query: { page: PAGING.page.max, per_page: 10 } });
    expect(res.body.data).toMatchObject({ count: 1, next: null, results: [] });
    expect(res.body.data.previous).toContain("page=1&");
  });

  it("is the spec's bound, 1,000,000,000, and keeps (page - 1) × per_page a safe integer", () => {
    expect(PAGING.page).toEqual({ min: 1, max: 1_000_000_000 });
    expect(Number.isSafeInteger((PAGING.page.max - 1) * PAGING.perPage.max)).toBe(true);
    expect(PAGING.page.max).toBeLessThanOrEqual(2 ** 31 - 1);
  });
});

describe("what makes a paging value", () => {
  it.each([
    [1, undefined],
    ["1", undefined],
    ["000123", undefined],
    [1_000_000_000, undefined],
    ["1000000000", undefined],
    [0, "Ensure this value is greater than or equal to 1."],
    ["-5", "Ensure this value is greater than or equal to 1."],
    [1_000_000_001, "Ensure this value is less than or equal to 1000000000."],
    ["1e20", "Must be of type integer."],
    [1.5, "Must be of type integer."],
    ["", "Must be of type integer."],
    [null, "Must be of type integer."],
    [Number.NaN, "Must be of type integer."],
  ])("%j: %s", (value, problem) => {
    expect(pagingValueError(value, PAGING.page)).toBe(problem);
  });

  it.each([
    ["12", false],
    ["-12", false],
    ["1e3", true],
    ["0x10", true],
    [" 2", true],
    ["+3", true],
    ["1.0", true],
    ["", true],
  ])("%j is refused as an integer parameter before Ajv coerces it: %s", (value, refused) => {
    expect(integerFormErrors(["page"], { page: value }).length > 0).toBe(refused);
  });

  it("leaves values a schema already coerced, and other parameters, to Ajv", () => {
    expect(integerFormErrors(["page"], { page: 5, status: "1e3" })).toEqual([]);
  });
});
