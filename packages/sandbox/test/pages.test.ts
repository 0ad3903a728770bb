import { afterEach, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../src/sandbox.js";
import type { CustomerRow } from "../src/records/rows.js";
import { Api, ORG_A, ORG_B } from "./helpers.js";

// Pages are SQL (ORDER BY … LIMIT/OFFSET on an index); these pin them to the order the in-memory sandbox gave:
// a stable sort of the rows in creation order, newest first by default, ties kept in creation order.
const open: Sandbox[] = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()!.close();
});

const N = 57;
/** Creation times with ties: rows i and i+1 share a timestamp when i is even; inserted out of time order. */
function createdAt(i: number): string {
  return new Date(Date.UTC(2026, 0, 1) + Math.floor(((i * 7) % N) / 2) * 60_000).toISOString();
}

async function seeded(): Promise<{ api: Api; rows: CustomerRow[] }> {
  const rows: CustomerRow[] = [];
  const sandbox = await createSandbox(
    { organizations: [ORG_A, ORG_B], autoProgressMs: false },
    {
      prepare: async (store, organizations) => {
        for (let i = 0; i < N; i++) {
          const row: CustomerRow = {
            id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
            org: organizations[0]!.id,
            client_reference_id: `page-${i}`,
            full_name: `Customer ${(i * 13) % 10}`,
            country: "IND",
            type: "INDIVIDUAL",
            status: i % 3 === 0 ? "VERIFIED" : "UNVERIFIED",
            failure_reason: null,
            created_at: createdAt(i),
            updated_at: createdAt(i),
          };
          await store.customers.put(row);
          rows.push(row);
        }
        // Another organization's rows never show up in the first one's pages or counts.
        await store.customers.put({
          ...rows[0]!,
          id: "00000000-0000-4000-8000-999999999999",
          org: organizations[1]!.id,
          client_reference_id: "other",
        });
      },
    },
  );
  open.push(sandbox);
  return { api: new Api(sandbox), rows };
}

/** The order of the in-memory sandbox: Array.prototype.sort (stable) over rows in creation order. */
function reference(rows: CustomerRow[], field: keyof CustomerRow, descending: boolean): string[] {
  return [...rows]
    .sort((a, b) => {
      const order = String(a[field] ?? "").localeCompare(String(b[field] ?? ""), "en", { numeric: true });
      return descending ? -order : order;
    })
    .map((r) => r.id);
}

async function allPages(
  api: Api,
  query: Record<string, string | number>,
): Promise<{ ids: string[]; counts: number[] }> {
  const ids: string[] = [];
  const counts: number[] = [];
  for (let page = 1; ; page++) {
    const data = await api.ok("GET", "/cms/api/v1/customer/list", undefined, {
      query: { ...query, page, per_page: 10 },
    });
    ids.push(...data.results.map((c: { id: string }) => c.id));
    counts.push(data.count);
    if (data.next === null) return { ids, counts };
  }
}

describe("list pages", () => {
  it("walks every page newest first, ties in creation order, with the organization's count on each", async () => {
    const { api, rows } = await seeded();
    const { ids, counts } = await allPages(api, {});
    expect(ids).toEqual(reference(rows, "created_at", true));
    expect(new Set(counts)).toEqual(new Set([N]));
  });

  it("orders oldest first with ordering=created_at, and by another field as the array sort did", async () => {
    const { api, rows } = await seeded();
    expect((await allPages(api, { ordering: "created_at" })).ids).toEqual(reference(rows, "created_at", false));
    expect((await allPages(api, { ordering: "-full_name" })).ids).toEqual(reference(rows, "full_name", true));
  });

  it("filters by status with a count of the matches", async () => {
    const { api, rows } = await seeded();
    const verified = rows.filter((r) => r.status === "VERIFIED");
    const { ids, counts } = await allPages(api, { status: "VERIFIED" });
    expect(ids).toEqual(reference(verified, "created_at", true));
    expect(new Set(counts)).toEqual(new Set([verified.length]));
  });

  it("answers an empty page past the end with links back, and 400 for an unknown ordering field", async () => {
    const { api } = await seeded();
    const past = await api.ok("GET", "/cms/api/v1/customer/list", undefined, { query: { page: 9, per_page: 10 } });
    expect(past).toMatchObject({ count: N, next: null, results: [] });
    expect(past.previous).toContain("page=6");
    const bad = await api.get("/cms/api/v1/customer/list", { query: { ordering: "-nonexistent" } });
    expect(bad.status).toBe(400);
  });
});
