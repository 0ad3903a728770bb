// Which statements a writer may run before its turn, and the statements that check its reads at its turn
// (read-check.ts), as tables.
import { describe, expect, it } from "vitest";
import { digestRead, isCheckableRead, ReadSet, readCheck } from "../src/store/postgres/read-check.js";

describe("a statement a writer may run before its turn", () => {
  it.each([
    ["a read by id", "SELECT json FROM customer WHERE id = $1", true],
    ["a page with a count", "SELECT COUNT(*) AS n FROM customer WHERE org = $1", true],
    ["a read that lowers its case", "select key, value from sandbox_meta where key in ($1, $2)", true],
    ["an insert", "INSERT INTO customer (id) VALUES ($1)", false],
    ["an update that answers rows", "UPDATE customer SET status = $1 WHERE id = $2 RETURNING json", false],
    ["a locking read", "SELECT json FROM payout WHERE id = $1 FOR UPDATE", false],
    ["a read that locks rows others may not change", "SELECT json FROM payout WHERE id = $1 FOR NO KEY UPDATE", false],
    ["a read sharing its lock", "SELECT 1 FROM payout WHERE id = $1 FOR KEY SHARE", false],
    ["the job queue's add_job", 'SELECT 1 AS added FROM "jobs".add_job($1, $2::json)', false],
    ["a notification", "SELECT pg_notify($1, $2)", false],
    ["the writers' lock", "SELECT pg_advisory_xact_lock(1)", false],
    ["a sequence", "SELECT nextval('s')", false],
    ["a common table expression (may write)", "WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x", false],
  ])("%s: %s", (_what, text, checkable) => {
    expect(isCheckableRead(text)).toBe(checkable);
  });
});

describe("the checks of a writer's reads", () => {
  it("gives the rows back without their digests, and checks each read against its digests, sorted", () => {
    const reads = new ReadSet();
    const rows = reads.record("SELECT v FROM t", [
      { v: "b", exchange_kit_digest: "ff" },
      { v: "a", exchange_kit_digest: "0a" },
    ]);
    expect(rows).toEqual([{ v: "b" }, { v: "a" }]);
    expect(reads.checks()).toEqual([readCheck("SELECT v FROM t", ["0a", "ff"])]);
  });

  it("checks a read that found nothing against no digest at all", () => {
    const reads = new ReadSet();
    reads.record("SELECT v FROM t WHERE false", []);
    expect(reads.checks()[0]).toContain("'{}'::text[]");
  });

  it("wraps a read so that each row answers its digest beside its columns", () => {
    expect(digestRead("SELECT v FROM t")).toBe(
      "SELECT exchange_kit_read.*, md5(exchange_kit_read::text) AS exchange_kit_digest FROM (SELECT v FROM t) exchange_kit_read",
    );
  });
});
