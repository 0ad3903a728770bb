// Results as the model reads them: the paging note, lists cut to the size bound, text cut with a note, what moved.
import { describe, expect, it } from "vitest";
import { cutText, fitList, movedNote, pagingNote } from "../src/results.js";

const page = (count: number, n: number) => ({
  count,
  next: null,
  previous: null,
  results: Array.from({ length: n }, (_, i) => ({ i })),
});

describe("pagingNote", () => {
  it.each([
    [page(45, 20), {}, "page 1 of 3 (45 records, 20 per page): call listCustomers with page: 2 for the next"],
    [
      page(45, 10),
      { page: 2, per_page: 10 },
      "page 2 of 5 (45 records, 10 per page): call listCustomers with page: 3 and per_page: 10 for the next",
    ],
    [page(45, 5), { page: 3 }, "page 3 of 3 (45 records, 20 per page): the last page"],
    [page(0, 0), {}, "page 1 of 1 (0 records, 20 per page): the last page"],
  ])("says where a page is and how to get the next: %#", (data, args, note) =>
    expect(pagingNote("listCustomers", data, args)).toBe(note),
  );

  it("says nothing of an answer that is not a paginated list", () => {
    expect(pagingNote("getCustomer", { id: "c" }, {})).toBeUndefined();
    expect(pagingNote("listPayinEdd", [], {})).toBeUndefined();
  });
});

describe("fitList", () => {
  it("keeps a list that fits whole", () => expect(fitList(page(3, 3), 1000)).toEqual({ data: page(3, 3), omitted: 0 }));

  it("drops records from the end of a list until it fits, and counts them", () => {
    const { data, omitted } = fitList(page(100, 100), 400);
    const kept = (data as { results: unknown[] }).results.length;
    expect(kept + omitted).toBe(100);
    expect(omitted).toBeGreaterThan(0);
    expect(JSON.stringify(data).length).toBeLessThanOrEqual(400);
  });

  it("keeps anything that is not a list as it is", () => {
    const big = { text: "x".repeat(1000) };
    expect(fitList(big, 100)).toEqual({ data: big, omitted: 0 });
  });
});

describe("cutText", () => {
  it("keeps a text within the bound", () => expect(cutText("short", 10)).toBe("short"));

  it("cuts a longer text on a character boundary and says so", () => {
    const cut = cutText("é".repeat(100), 51);
    expect(cut.startsWith("é".repeat(25))).toBe(true);
    expect(cut).not.toContain("\uFFFD");
    expect(cut).toContain("[cut: the answer is 200 bytes, over this server's bound of 51");
  });
});

it("says what an order moved: the order, its status, its reference and its amounts", () =>
  expect(
    movedNote("payin", {
      id: "p-1",
      status: "PROCESSING",
      client_reference_id: "ref-1",
      raw: { sending_amount: "25000.00", receiving_amount: "287.35", fiat: "INR", asset: "usdt", note: "x" },
    }),
  ).toBe(
    "moved: payin order p-1 created (status PROCESSING, client_reference_id ref-1); sending_amount 25000.00, receiving_amount 287.35, fiat INR, asset usdt",
  ));
